// Display helpers for the screens.

// Made on first use: making an Intl formatter costs ~15 ms, and most screens that import this
// file (the replay's among them, before its first frame) never format a date with it.
let shortDate: Intl.DateTimeFormat | undefined;

/** Short US date, e.g. "Nov 21, 2026". */
export function formatShortDate(epochMs: number): string {
  shortDate ??= new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
  return Number.isFinite(epochMs) ? shortDate.format(new Date(epochMs)) : '—';
}

export function formatDuration(startMs: number, endMs: number): string {
  return `${formatShortDate(startMs)} - ${formatShortDate(endMs)}`;
}

/** A campaign's session limit; 0 means no limit. */
export function formatSessionLimit(limit: number): string {
  return limit === 0 ? 'No limit' : `${limit} sessions`;
}

export const SHORT_ID_LENGTH = 8;
export const shortId = (id: string) => id.slice(0, SHORT_ID_LENGTH);

/** Value for a datetime-local input in the user's local time. */
export function toLocalInputValue(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

export function formatDateTime(epochMs: number): string {
  return Number.isFinite(epochMs) ? new Date(epochMs).toLocaleString('en-US') : '—';
}

/** 512 B, 1.5 KB, 250 MB, 3.2 GB: one decimal under 10, whole numbers above. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

export function formatDurationMs(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  return m > 0 ? `${m}m ${s}s` : `${s}s`;
}

/**
 * A session's IP address as stored under its campaign's IP handling at the time:
 * "192.0.2.0 (truncated)", "Not stored" when the campaign keeps no address, else the address.
 */
export function storedIpLabel(session: { remoteIpAddress: string | null; ipMode?: string }, unknown = 'Unknown'): string {
  if (session.ipMode === 'none') return 'Not stored';
  if (!session.remoteIpAddress) return unknown;
  return session.ipMode === 'truncated' ? `${session.remoteIpAddress} (truncated)` : session.remoteIpAddress;
}
