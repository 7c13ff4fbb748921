// The browser's storage figures for /saved, and the request that makes the browser keep our
// data under storage pressure (Safari evicts sites that never asked).

export interface StorageFigures {
  usage: number | null;
  quota: number | null;
  persisted: boolean | null;
}

export async function storageFigures(): Promise<StorageFigures> {
  const storage = typeof navigator !== 'undefined' ? navigator.storage : undefined;
  const [estimate, persisted] = await Promise.all([storage?.estimate?.().catch(() => null) ?? null, storage?.persisted?.().catch(() => null) ?? null]);
  return { usage: estimate?.usage ?? null, quota: estimate?.quota ?? null, persisted };
}

/** Asks for persistent storage; resolves to whether the browser granted it. */
export async function requestPersistentStorage(): Promise<boolean> {
  try {
    return (await navigator.storage?.persist?.()) ?? false;
  } catch {
    return false;
  }
}
