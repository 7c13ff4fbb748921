import { useEffect, useEffectEvent, useState, useSyncExternalStore } from 'react';
import { api } from '../api/client.js';
import { useOnline } from '../offline/useOnline.js';

// A Server-Sent Events stream of the API, open while the page is visible and online (closed when
// hidden, offline or left). EventSource reconnects by itself (sending Last-Event-ID); a stream that
// resumes from what the page holds (`after`) is opened again by the hook instead, asking `after=`
// that, so nothing is missed or seen twice. A stream the server refused (closed at once: an expired
// access token, usually) gets one refresh through the app's client, then opens again; after a few
// refusals in a row it stays closed.

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
  /** The stream's path. */
  path: string;
  enabled: boolean;
  /** What the page holds, asked as `after=` on each opening (null: from the start). */
  after?: () => string | null;
  /** Handlers per event name: the message's data and id. */
  on: Record<string, (data: string, id: string) => void>;
}

/** Whether the stream is connected now. */
export function useLiveStream({ path, enabled, after, on }: LiveStreamOptions): boolean {
  const visible = usePageVisible();
  const online = useOnline();
  const active = enabled && visible && online && typeof EventSource !== 'undefined';
  const [connected, setConnected] = useState(false);
  const handle = useEffectEvent((name: string, event: MessageEvent<string>) => on[name]?.(event.data, event.lastEventId));
  const names = Object.keys(on).sort().join(',');
  const resumes = Boolean(after);
  const resumeFrom = useEffectEvent(() => after?.() ?? null);

  useEffect(() => {
    if (!active) return;
    let source: EventSource | null = null;
    let timer: number | undefined;
    let stopped = false;
    let refusals = 0;
    const open = () => {
      if (stopped) return;
      const held = resumeFrom();
      const es = new EventSource(held ? `${path}${path.includes('?') ? '&' : '?'}after=${encodeURIComponent(held)}` : path);
      source = es;
      es.addEventListener('open', () => {
        refusals = 0;
        setConnected(true);
      });
      for (const name of names.split(',')) if (name) es.addEventListener(name, (event) => handle(name, event as MessageEvent<string>));
      es.addEventListener('error', () => {
        setConnected(false);
        const dropped = es.readyState !== EventSource.CLOSED; // reconnecting by itself
        if (dropped && !resumes) return;
        es.close();
        if (dropped) {
          timer = window.setTimeout(open, REOPEN_MS);
          return;
        }
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
  }, [active, path, names, resumes]);

  return active && connected;
}
