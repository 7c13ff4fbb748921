import fs from 'node:fs';
import vm from 'node:vm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EventType } from '@rrweb/types';
import { batchFlaw } from '../../../common/ingest-batch.js';
import { fillLoader } from '../../../common/loader-script.js';
import { EVENTS_PER_MINUTE, FIELDS_MAX, NAME_MAX, PAGE_STUB, PEOPLE_TAGS, QUEUE_MAX } from '../../../common/people.js';

const consents: boolean[] = [];
vi.mock('../../../tracker/src/consent.js', () => ({ grantConsent: (granted: boolean) => consents.push(granted) }));
const { pageApi } = await import('../../../tracker/src/page-api.js');

type Global = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const LOADER = fillLoader(fs.readFileSync('tracker/loader.js', 'utf8'), '5b0c1f8e-8d3a-4c57-9a4e-2f0c9d7b6a11', 'https://tapedeck.example.com');

/** A page: its window, what the loader appended, and scripts run in it as a browser would. */
function page(nav: Record<string, unknown> = {}) {
  const appended: { src: string }[] = [];
  const window: Global = { addEventListener: () => undefined };
  const context = vm.createContext({
    window,
    navigator: nav,
    document: { readyState: 'complete', createElement: () => ({}), head: { appendChild: (node: { src: string }) => appended.push(node) } },
  });
  window.window = window;
  return { window, appended, run: (source: string) => vm.runInContext(source, context) };
}

/** The recorder taking over the page's global: what it adds to the recording, and the control calls. */
function takeOver(global: Global, now = () => 0) {
  const added: { tag: string; payload: Record<string, unknown> }[] = [];
  const control: string[] = [];
  pageApi(
    global,
    (tag, payload) => added.push({ tag: 'tapedeck/' + tag, payload: payload as Record<string, unknown> }),
    { stop: () => control.push('stop'), start: () => control.push('start') },
    now,
  );
  return { added, control };
}

afterEach(() => {
  consents.length = 0;
  vi.restoreAllMocks();
});

describe('the page API queue', () => {
  it('keeps the calls of the page stub and the loader and replays them in order once the recorder takes over', () => {
    const { window, run, appended } = page();
    run(PAGE_STUB);
    window.tapedeck.identify('customer-4711', { plan: 'pro', seats: 3 });
    run(LOADER);
    expect(appended).toHaveLength(1);
    window.tapedeck.event('signup', { step: 2 });
    window.tapedeck.tag('team', 'blue');
    window.tapedeck.consent(true);
    window.tapedeck.stop();
    window.tapedeck.start();
    const { added, control } = takeOver(window.tapedeck);
    expect(added).toEqual([
      { tag: PEOPLE_TAGS.identify, payload: { userId: 'customer-4711', traits: { plan: 'pro', seats: 3 } } },
      { tag: PEOPLE_TAGS.event, payload: { name: 'signup', props: { step: 2 } } },
      { tag: PEOPLE_TAGS.tag, payload: { key: 'team', value: 'blue' } },
    ]);
    expect(consents).toEqual([true]);
    expect(control).toEqual(['stop', 'start']);
    expect(window.tapedeck.q).toEqual([]);
    // Ingest takes what the API adds.
    expect(
      batchFlaw({
        sessionId: 'page-api-test-1',
        seq: 0,
        events: added.map(({ tag, payload }) => ({ type: EventType.Custom, data: { tag, payload }, timestamp: 1000 })),
      }),
    ).toBeNull();
  });

  it('makes the API safe without the recorder: the loader defines it even for a visitor who opted out, and the queue is bounded', () => {
    const { window, run, appended } = page({ doNotTrack: '1' });
    run(LOADER);
    expect(appended).toEqual([]);
    for (let i = 0; i < QUEUE_MAX + 50; i++) window.tapedeck.event('click-' + i);
    expect(window.tapedeck.q).toHaveLength(QUEUE_MAX);
    expect(window.tapedeck.campaignId).toBeUndefined();
  });

  it('loads the recorder once however often the tag runs', () => {
    const { window, run, appended } = page();
    run(LOADER);
    window.tapedeck.identify('a');
    run(LOADER);
    expect(appended).toHaveLength(1);
    expect(window.tapedeck.q).toEqual([['identify', 'a']]);
  });
});

describe('the page API bounds', () => {
  it('drops calls over the bounds with one warning per method, never throwing', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const global: Global = {};
    const { added } = takeOver(global);
    const many = Object.fromEntries(Array.from({ length: FIELDS_MAX + 1 }, (_, i) => ['k' + i, i]));
    const hostile = new Proxy(
      {},
      {
        ownKeys() {
          throw new Error('page state');
        },
      },
    );
    expect(() => {
      global.identify('x'.repeat(NAME_MAX + 1));
      global.identify('');
      global.identify(42);
      global.identify('a', many);
      global.identify('a', { nested: { deep: 1 } });
      global.identify('a', hostile);
      global.event('y'.repeat(NAME_MAX + 1));
      global.event('ok', [1, 2]);
      global.tag('team', 42);
      global.tag('', 'blue');
    }).not.toThrow();
    expect(added).toEqual([]);
    expect(warn.mock.calls.map((call) => call[0])).toEqual([
      'tapedeck.identify call dropped: over its limits',
      'tapedeck.event call dropped: over its limits',
      'tapedeck.tag call dropped: over its limits',
    ]);
    // At the bounds, calls are taken.
    global.identify('x'.repeat(NAME_MAX), Object.fromEntries(Array.from({ length: FIELDS_MAX }, (_, i) => ['k' + i, i % 2 ? 'text' : null])));
    global.tag('team', '');
    expect(added.map((a) => a.tag)).toEqual([PEOPLE_TAGS.identify, PEOPLE_TAGS.tag]);
  });

  it('takes at most EVENTS_PER_MINUTE events a minute', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    let now = 1_000_000;
    const global: Global = {};
    const { added } = takeOver(global, () => now);
    for (let i = 0; i < EVENTS_PER_MINUTE + 20; i++) global.event('tick');
    expect(added).toHaveLength(EVENTS_PER_MINUTE);
    now += 30_000;
    global.event('tick');
    expect(added).toHaveLength(EVENTS_PER_MINUTE);
    now += 30_001;
    global.event('tick');
    expect(added).toHaveLength(EVENTS_PER_MINUTE + 1);
    expect(console.warn).toHaveBeenCalledTimes(1);
  });
});
