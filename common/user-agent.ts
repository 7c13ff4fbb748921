import Bowser from 'bowser';

// A user agent read once, here: its browser, operating system and device kind (common/devices.ts),
// as a session row stores them (softwareOf) and as a person reads them (summariseUserAgent).

export interface Software {
  browser: string | null;
  os: string | null;
  /** The device kind: Bowser's platform type. */
  device: string | null;
}

/** Browser with its major version, OS with its version, device kind; null for whatever the user agent does not say. */
export function softwareOf(userAgent: string | null | undefined): Software {
  if (!userAgent) return { browser: null, os: null, device: null };
  const parsed = Bowser.parse(userAgent);
  const major = parsed.browser.version?.split('.')[0];
  const browser = parsed.browser.name ? [parsed.browser.name, major].filter(Boolean).join(' ') : null;
  const os = parsed.os.name ? [parsed.os.name, parsed.os.versionName ?? parsed.os.version].filter(Boolean).join(' ') : null;
  return { browser, os, device: parsed.platform.type ?? null };
}

export interface UserAgentSummary {
  browser: string;
  os: string;
  device: string;
}

const DEVICE_NAMES: Record<string, string> = { desktop: 'Desktop', mobile: 'Phone', tablet: 'Tablet', tv: 'TV', bot: 'Bot' };

/** softwareOf in words: 'Unknown' for whatever the user agent does not say. */
export function summariseUserAgent(userAgent: string | null | undefined): UserAgentSummary {
  const { browser, os, device } = softwareOf(userAgent);
  return {
    browser: browser ?? 'Unknown browser',
    os: os ?? 'Unknown OS',
    device: (device && DEVICE_NAMES[device]) ?? 'Unknown device',
  };
}
