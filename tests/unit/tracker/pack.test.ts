import zlib from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { maskJson, pack, packNow } from '../../../tracker/src/pack.js';
import { createPacker } from '../../../tracker/src/packer.js';
import type { BatchHead } from '../../../tracker/src/batch.js';
import type { SessionInfo } from '../../../common/api-types.js';

const snapshot = JSON.stringify({
  type: 2,
  data: { node: { childNodes: [{ attributes: { placeholder: 'ada@example.com' }, childNodes: [] }] } },
  timestamp: 5,
});
const click = JSON.stringify({ type: 3, data: { source: 2, type: 2, id: 7 }, timestamp: 6 });
const info: SessionInfo = {
  userAgent: 'UA',
  language: 'en',
  timezone: '',
  hardwareConcurrency: 2,
  webdriver: false,
  cookiesEnabled: true,
  hasFocus: true,
  fullScreenEnabled: false,
};
const head = (): BatchHead => ({ sessionId: 'session-1', seq: 3, info: { ...info } });

const gunzip = async (body: BodyInit) => JSON.parse(zlib.gunzipSync(Buffer.from(await (body as Blob).arrayBuffer())).toString('utf8'));

describe('packing a batch', () => {
  it('masks placeholders on the way out and leaves other events as they were', () => {
    expect(JSON.parse(maskJson(snapshot)).data.node.childNodes[0].attributes.placeholder).toBe('***************');
    expect(maskJson(click)).toBe(click);
  });

  it('makes a gzip body holding what ingest expects, masked, with the time zone filled in', async () => {
    const packed = await pack(head(), [snapshot, click]);
    expect(packed).toBeInstanceOf(Blob);
    const body = await gunzip(packed);
    expect(body).toMatchObject({ sessionId: 'session-1', seq: 3, info: { userAgent: 'UA' } });
    expect(body.info.timezone).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(body.events).toEqual([JSON.parse(maskJson(snapshot)), JSON.parse(click)]);
    expect(JSON.stringify(body)).not.toContain('ada@example.com');
  });

  it('makes the same body as JSON at once for an unloading page', () => {
    const packed = packNow(head(), [snapshot]);
    expect(packed).not.toContain('ada@example.com');
    expect(JSON.parse(packed).info.timezone).not.toBe('');
  });

  it('packs on the page when no worker can start, with the same result', async () => {
    const packer = createPacker(undefined);
    expect(packer.inWorker).toBe(false);
    const [onPage, direct] = await Promise.all([packer.pack(head(), [snapshot, click]), pack(head(), [snapshot, click])]);
    expect(await gunzip(onPage)).toEqual(await gunzip(direct));
  });
});

describe('the packer when its worker fails', () => {
  afterEach(() => vi.unstubAllGlobals());

  /** A worker that starts, takes messages and then dies (as one whose script failed would). */
  class DyingWorker {
    onmessage: ((event: MessageEvent) => void) | null = null;
    onerror: (() => void) | null = null;
    received: unknown[] = [];
    terminated = false;
    static last: DyingWorker;
    constructor() {
      DyingWorker.last = this;
    }
    postMessage(message: unknown) {
      this.received.push(message);
    }
    terminate() {
      this.terminated = true;
    }
  }

  it('packs what the worker held on the page instead, losing nothing', async () => {
    vi.stubGlobal('Worker', DyingWorker);
    const packer = createPacker('/* worker source */');
    expect(packer.inWorker).toBe(true);
    const first = packer.pack(head(), [snapshot]);
    const second = packer.pack({ ...head(), seq: 4 }, [click]);
    expect(DyingWorker.last.received).toHaveLength(2);
    DyingWorker.last.onerror?.();
    expect(DyingWorker.last.terminated).toBe(true);
    expect(packer.inWorker).toBe(false);
    const bodies = await Promise.all([first, second].map(async (p) => gunzip(await p)));
    expect(bodies.map((b) => b.seq)).toEqual([3, 4]);
    expect(bodies[0].events).toEqual([JSON.parse(maskJson(snapshot))]);
    // Later batches are packed on the page straight away.
    expect((await gunzip(await packer.pack(head(), [click]))).events).toEqual([JSON.parse(click)]);
  });
});
