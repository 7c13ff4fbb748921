// A link to a moment of a replay: `?t=<seconds>` on the replay page's address.

/** The `t` search value as whole seconds from the recording's start, or undefined when it is not one. */
export function momentParam(value: unknown): number | undefined {
  const seconds = typeof value === 'number' ? value : typeof value === 'string' && /^\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : NaN;
  return Number.isFinite(seconds) && seconds >= 0 && seconds <= 7 * 24 * 3600 ? Math.floor(seconds) : undefined;
}

/** This page's address with `t` set to the player's second (any other `t` replaced, the rest kept). */
export function momentLink(href: string, currentMs: number): string {
  const url = new URL(href);
  url.searchParams.set('t', String(Math.floor(Math.max(0, currentMs) / 1000)));
  url.hash = '';
  return url.toString();
}
