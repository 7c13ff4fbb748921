import { useEffect, useEffectEvent, useState, useSyncExternalStore } from 'react';
import { api } from '../api/client.js';
import { useOnline } from '../offline/useOnline.js';

// A Server-Sent Events stream of the API, open while the page is visible and online (closed when
// hidden, offline or left). EventSource reconnects by itself (sending Last-Event-ID); a stream we
// close and open again asks `after=` the last id seen, so nothing is missed or seen twice. A stream
// the server refused (closed at once: an expired access token, usually) gets one refresh through
// the app's client, then opens again; after a few refusals in a row it stays closed.

const MAX_REFUSALS = 3;
const REOPEN_MS = 1000;

function subscribeVisibility(onChange: () => void): () => void {
  document.addEventListener('visibilitychange', onChange);
  return () => document.removeEventListener('visibilitychange', onChange);
}

export function usePageVisible(): boolean {
  return useSyncExternalStore(
    subscribeVisibility,
    () => document.visibilityState !== 'hidden',
    () => true,
  );
}

export interface LiveStreamOptions {
  /** The stream's path; `after=<last id>` is added when opening again. */
  path: string;
  enabled: boolean;
  /** Handlers per event name: the message's data and id. */
  on: Record<string, (data: string, id: string) => void>;
}

/** Whether the stream is connected now. */
export function useLiveStream({ path, enabled, on }: LiveStreamOptions): boolean {
  const visible = usePageVisible();
  const online = useOnline();
  const active = enabled && visible && online && typeof EventSource !== 'undefined';
  const [connected, setConnected] = useState(false);
  const [lastId, setLastId] = useState<{ path: string; id: string } | null>(null);
  const handle = useEffectEvent((name: string, event: MessageEvent<string>) => {
    if (event.lastEventId) setLastId({ path, id: event.lastEventId });
    on[name]?.(event.data, event.lastEventId);
  });
  const names = Object.keys(on).sort().join(',');
  const resumeFrom = useEffectEvent(() => (lastId?.path === path ? lastId.id : null));

  useEffect(() => {
    if (!active) return;
    let source: EventSource | null = null;
    let timer: number | undefined;
    let stopped = false;
    let refusals = 0;
    const open = () => {
      if (stopped) return;
      const after = resumeFrom();
      const es = new EventSource(after ? `${path}${path.includes('?') ? '&' : '?'}after=${encodeURIComponent(after)}` : path);
      source = es;
      es.addEventListener('open', () => {
        refusals = 0;
        setConnected(true);
      });
      for (const name of names.split(',')) if (name) es.addEventListener(name, (event) => handle(name, event as MessageEvent<string>));
      es.addEventListener('error', () => {
        setConnected(false);
        if (es.readyState !== EventSource.CLOSED) return; // reconnecting by itself
        es.close();
        refusals += 1;
        if (refusals > MAX_REFUSALS) return;
        void api
          .refresh()
          .catch(() => undefined)
          .then(() => {
            if (!stopped) timer = window.setTimeout(open, REOPEN_MS * refusals);
          });
      });
    };
    open();
    return () => {
      stopped = true;
      window.clearTimeout(timer);
      source?.close();
      setConnected(false);
    };
  }, [active, path, names]);

  return active && connected;
}
