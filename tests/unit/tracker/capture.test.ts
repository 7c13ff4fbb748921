import { afterEach, describe, expect, it, vi } from 'vitest';
import { EventType } from '@rrweb/types';
import { batchFlaw } from '../../../common/ingest-batch.js';
import { CAPTURED_TAGS, MESSAGE_MAX, STACK_MAX } from '../../../common/captured.js';

const added: { tag: string; payload: Record<string, unknown> }[] = [];
vi.mock('@rrweb/record', () => ({
  record: { addCustomEvent: (tag: string, payload: Record<string, unknown>) => added.push({ tag, payload }) },
}));
const { capture } = await import('../../../tracker/src/capture.js');

/** A page with just what capture() wraps: console, fetch, XMLHttpRequest and its error events. */
function page(status: number) {
  const listeners: Record<string, (event: unknown) => void> = {};
  const window = { console: { error: () => undefined, warn: () => undefined }, fetch: async () => ({ status }) } as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  vi.stubGlobal('window', window);
  vi.stubGlobal('addEventListener', (type: string, listener: (event: unknown) => void) => (listeners[type] = listener));
  vi.stubGlobal('XMLHttpRequest', class {});
  capture(() => true);
  return { window, listeners };
}

/** What ingest says of a batch carrying the captured events: null when it takes it. */
const ingestFlaw = () =>
  batchFlaw({
    sessionId: 'capture-test-1',
    seq: 0,
    events: added.map(({ tag, payload }) => ({ type: EventType.Custom, data: { tag, payload }, timestamp: 1000 })),
  });

afterEach(() => {
  added.length = 0;
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('captured events', () => {
  it('never sends what ingest refuses: a request timed across a clock set back lasted 0 ms', async () => {
    const { window } = page(503);
    vi.spyOn(Date, 'now').mockReturnValueOnce(10_000).mockReturnValueOnce(9_000);
    await window.fetch('https://example.com/api/orders?id=1');
    expect(added).toEqual([{ tag: CAPTURED_TAGS.request, payload: { method: 'GET', url: 'https://example.com/api/orders', status: 503, durationMs: 0 } }]);
    expect(ingestFlaw()).toBeNull();
  });

  it('cuts messages and stacks to the lengths ingest takes', () => {
    const { window, listeners } = page(200);
    window.console.error('x'.repeat(MESSAGE_MAX + 100));
    listeners.error({ message: 'y'.repeat(MESSAGE_MAX + 1), filename: 'https://example.com/app.js', lineno: 3, error: { stack: 'z'.repeat(STACK_MAX + 1) } });
    expect(added.map((a) => a.tag)).toEqual([CAPTURED_TAGS.console, CAPTURED_TAGS.error]);
    expect(added[0].payload.message).toHaveLength(MESSAGE_MAX);
    expect(added[1].payload.message).toHaveLength(MESSAGE_MAX);
    expect(added[1].payload.stack).toHaveLength(STACK_MAX);
    expect(ingestFlaw()).toBeNull();
  });
});
