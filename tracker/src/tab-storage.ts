// What the tab keeps in sessionStorage: its session (which survives page loads, not the tab) under
// STATE_KEY, and under STASH_KEY the batches a page could not send while it unloaded, which the
// tab's next page sends.

export const STATE_KEY = 'tapedeck';
export const STASH_KEY = 'tapedeck:unsent';

/** Reads `key` (no value), removes it (null) or sets it; blocked or full storage reads as nothing. */
export function storage(key: string, value?: string | null): string | null {
  try {
    if (value === undefined) return sessionStorage.getItem(key);
    if (value === null) sessionStorage.removeItem(key);
    else sessionStorage.setItem(key, value);
  } catch {
    // storage blocked or full: the session then lasts one page
  }
  return null;
}
