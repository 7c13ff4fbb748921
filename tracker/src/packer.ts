// The page's side of packing: batches go to the pack worker and come back as compressed bodies.
// Where no worker can start (a CSP without blob: workers, an old browser) or one fails, the
// same code runs on the page instead, and nothing waiting is lost.
import type { BatchHead } from './batch.js';
import { pack, type PackReply } from './pack.js';

export interface Packer {
  pack(head: BatchHead, events: string[]): Promise<BodyInit>;
  readonly inWorker: boolean;
}

interface Waiting {
  head: BatchHead;
  events: string[];
  resolve(body: BodyInit): void;
}

/** The worker and its blob: URL, which is revoked once the worker has answered or failed. */
function startWorker(source: string): { worker: Worker; url: string } | undefined {
  if (typeof Worker === 'undefined' || typeof URL.createObjectURL !== 'function') return undefined;
  const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
  try {
    return { worker: new Worker(url), url };
  } catch {
    URL.revokeObjectURL(url);
    return undefined; // the site's CSP forbids blob: workers
  }
}

/** Packs in a worker started from `workerSource` when one can run, else on the page. */
export function createPacker(workerSource: string | undefined): Packer {
  const started = workerSource ? startWorker(workerSource) : undefined;
  let worker = started?.worker;
  const waiting = new Map<number, Waiting>();
  let nextId = 0;
  // Not revoked at once: some browsers fetch a worker's script after its constructor returns.
  let url = started?.url;
  const revoke = () => {
    if (url) URL.revokeObjectURL(url);
    url = undefined;
  };

  const onPage = () => {
    revoke();
    worker?.terminate();
    worker = undefined;
    for (const job of waiting.values()) void pack(job.head, job.events).then(job.resolve);
    waiting.clear();
  };
  if (worker) {
    worker.onmessage = ({ data }: MessageEvent<PackReply>) => {
      revoke();
      waiting.get(data.id)?.resolve(data.body);
      waiting.delete(data.id);
    };
    worker.onerror = onPage;
  }

  return {
    get inWorker() {
      return worker !== undefined;
    },
    pack(head, events) {
      if (!worker) return pack(head, events);
      return new Promise<BodyInit>((resolve) => {
        const id = nextId++;
        waiting.set(id, { head, events, resolve });
        try {
          worker?.postMessage({ id, head, events });
        } catch {
          onPage();
        }
      });
    },
  };
}
