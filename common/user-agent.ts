import Bowser from 'bowser';

// A user agent as a person reads it: browser, operating system and kind of device.

export interface UserAgentSummary {
  browser: string;
  os: string;
  device: string;
}

const DEVICE_NAMES: Record<string, string> = { desktop: 'Desktop', mobile: 'Phone', tablet: 'Tablet', tv: 'TV', bot: 'Bot' };

/** 'Unknown' for whatever the user agent does not say. */
export function summariseUserAgent(userAgent: string | null | undefined): UserAgentSummary {
  const unknown = { browser: 'Unknown browser', os: 'Unknown OS', device: 'Unknown device' };
  if (!userAgent) return unknown;
  const parsed = Bowser.parse(userAgent);
  const major = parsed.browser.version?.split('.')[0];
  const osVersion = parsed.os.versionName ?? parsed.os.version;
  return {
    browser: parsed.browser.name ? [parsed.browser.name, major].filter(Boolean).join(' ') : unknown.browser,
    os: parsed.os.name ? [parsed.os.name, osVersion].filter(Boolean).join(' ') : unknown.os,
    device: (parsed.platform.type && DEVICE_NAMES[parsed.platform.type]) ?? unknown.device,
  };
}
