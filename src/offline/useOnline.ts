import { useEffect, useEffectEvent, useRef, useSyncExternalStore } from 'react';

function subscribe(onChange: () => void): () => void {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
}

/** The browser's own idea of being online (Chromium also flips it for DevTools' offline mode). */
export function useOnline(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => navigator.onLine,
    () => true,
  );
}

/**
 * Calls `whenBack` when the network returns while `pending` (e.g. an offline notice is shown):
 * a message about being offline must not outlive being offline.
 */
export function useWhenBackOnline(pending: boolean, whenBack: () => void): void {
  const online = useOnline();
  const callBack = useEffectEvent(whenBack);
  const wasOnline = useRef(online);
  useEffect(() => {
    // Only a return: a notice raised while the browser still thinks it is online stays.
    if (online && !wasOnline.current && pending) callBack();
    wasOnline.current = online;
  }, [online, pending]);
}
