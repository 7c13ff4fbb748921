// Storage running out is a normal condition on phones, not a crash: it becomes this error,
// whose message the screens show as it is.

export const QUOTA_MESSAGE =
  'Not enough storage space on this device to save this replay. Remove or unpin saved replays, or raise the storage budget, then try again.';

export class OfflineQuotaError extends Error {
  constructor(message = QUOTA_MESSAGE) {
    super(message);
    this.name = 'OfflineQuotaError';
  }
}

/** QuotaExceededError in any of its guises (DOMException name, legacy code 22, Firefox's name). */
export function isQuotaError(error: unknown): boolean {
  if (error instanceof OfflineQuotaError) return true;
  if (typeof error !== 'object' || error === null) return false;
  const { name, code } = error as { name?: unknown; code?: unknown };
  return name === 'QuotaExceededError' || name === 'NS_ERROR_DOM_QUOTA_REACHED' || code === 22;
}
