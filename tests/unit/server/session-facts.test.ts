import { gunzipSync } from 'node:zlib';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { emptyFacts, factMoments, MAX_SEARCH_TEXTS, foldFacts, hasHumanInput, pathOf, sessionFacts, type SessionFacts } from '../../../common/session-facts.js';
import { carriedFacts, readCarried } from '../../../common/carried-facts.js';
import { maskText } from '../../../common/scrub.js';

// Fixtures in rrweb's own event shapes, as the tracker records them.
const T = 1_750_000_000_000;
const meta = (t: number, href: string) => ({ type: 4, data: { href, width: 1280, height: 800 }, timestamp: T + t });
const full = (t: number) => ({ type: 2, data: { node: { type: 0, childNodes: [] } }, timestamp: T + t });
const move = (t: number) => ({ type: 3, data: { source: 1, positions: [{ x: 1, y: 1, id: 1, timeOffset: 0 }] }, timestamp: T + t });
const click = (t: number, x = 100, y = 100, id = 7) => ({ type: 3, data: { source: 2, type: 2, id, x, y }, timestamp: T + t });
const mutation = (t: number) => ({ type: 3, data: { source: 0, adds: [], removes: [], texts: [], attributes: [] }, timestamp: T + t });
const scroll = (t: number) => ({ type: 3, data: { source: 3, id: 1, x: 0, y: 200 }, timestamp: T + t });
const custom = (t: number, tag: string, payload: object) => ({ type: 5, data: { tag, payload }, timestamp: T + t });

const facts = (events: ReturnType<typeof move>[] | object[]) => sessionFacts(events as never).facts;

/** The same events folded a batch at a time, carrying only what the session row carries. */
function inBatches(events: { timestamp: number }[], size: number): SessionFacts {
  let state = emptyFacts();
  for (let i = 0; i < events.length; i += size) {
    const carried = readCarried(carriedFacts(state));
    state = foldFacts({ ...state, ...carried }, factMoments(events.slice(i, i + size) as never));
  }
  return state;
}

describe('active time (rrweb inactivity rule)', () => {
  it('adds the gaps between inputs of 10 s or less, and skips longer ones', () => {
    expect(facts([move(0), move(4000), move(9000), move(30_000), move(31_000)]).activeMs).toBe(10_000);
  });
  it('counts nothing for a session without input', () => {
    expect(facts([meta(0, 'https://shop.example/'), full(1), mutation(5000)]).activeMs).toBe(0);
  });
});

// One rule for human input: the time a session is active is time with human input, so a session
// with active time is never a bot for "No human input", and a session typed into is not one.
describe('human input', () => {
  const typed = (t: number) => ({ type: 3, data: { source: 5, id: 3, text: '***', isChecked: false }, timestamp: T + t });
  const resize = (t: number) => ({ type: 3, data: { source: 4, width: 800, height: 600 }, timestamp: T + t });
  const touch = (t: number) => ({ type: 3, data: { source: 6, positions: [{ x: 1, y: 1, id: 1, timeOffset: 0 }] }, timestamp: T + t });
  it.each([
    ['a crawler that scrolls and resizes', [meta(0, 'https://shop.example/'), full(1), resize(2), scroll(2000), scroll(4000), scroll(6000)], false],
    ['a visitor who only types', [meta(0, 'https://shop.example/'), full(1), typed(1000), typed(3000), typed(5000)], true],
    ['a visitor who moves the mouse', [full(1), move(1000), move(3000)], true],
    ['a visitor on a phone', [full(1), touch(1000), touch(3000)], true],
  ])('%s: active time only with human input', (_, events, human) => {
    expect(hasHumanInput(events)).toBe(human);
    expect(facts(events).activeMs > 0).toBe(human);
  });
});

describe('pages', () => {
  it('lists each page load as a path, without query string or fragment, with entry and exit', () => {
    const result = facts([
      meta(0, 'https://shop.example/?utm=1'),
      full(1),
      meta(5000, 'https://shop.example/cart#top'),
      full(5001),
      meta(9000, 'https://shop.example/pay?card=1'),
    ]);
    expect(result.pages).toEqual(['/', '/cart', '/pay']);
    expect(result.entryUrl).toBe('/');
    expect(result.exitUrl).toBe('/pay');
  });
  it('keeps at most 50 pages, while the exit keeps up', () => {
    const result = facts(Array.from({ length: 60 }, (_, i) => meta(i * 1000, `https://shop.example/p${i}`)));
    expect(result.pages).toHaveLength(50);
    expect(result.exitUrl).toBe('/p59');
  });
  it('takes the path of a relative or odd href', () => {
    expect(pathOf('/a/b?x=1')).toBe('/a/b');
  });
});

describe('rage clicks', () => {
  it('three clicks within 1 s within 30 px are one rage click', () => {
    const result = facts([click(0), mutation(10), click(300, 110, 105), mutation(310), click(600, 95, 100), mutation(610)]);
    expect(result.clickCount).toBe(3);
    expect(result.rageClickCount).toBe(1);
  });
  it('a longer burst on one spot still counts once', () => {
    expect(facts([0, 150, 300, 450, 600, 750].flatMap((t) => [click(t), mutation(t + 5)])).rageClickCount).toBe(1);
  });
  it('clicks spread over more than 1 s, or far apart, are not rage', () => {
    expect(facts([click(0), mutation(1), click(600), mutation(601), click(1200), mutation(1201)]).rageClickCount).toBe(0);
    expect(facts([click(0, 0, 0), mutation(1), click(100, 100, 0), mutation(101), click(200, 200, 0), mutation(201)]).rageClickCount).toBe(0);
  });
  it('two bursts a while apart count twice', () => {
    const burst = (t: number) => [click(t), click(t + 100), click(t + 200), mutation(t + 210)];
    expect(facts([...burst(0), ...burst(5000)]).rageClickCount).toBe(2);
  });
  it('is found across batches', () => {
    expect(inBatches([click(0), click(300), click(600), mutation(610)], 1).rageClickCount).toBe(1);
  });
});

describe('dead clicks', () => {
  it('a click followed by nothing the page does for 1 s is dead', () => {
    expect(facts([click(0), move(400), move(1500)]).deadClickCount).toBe(1);
  });
  it('a DOM change, a scroll, a navigation or typing within 1 s answers the click', () => {
    expect(facts([click(0), mutation(200), move(1500)]).deadClickCount).toBe(0);
    expect(facts([click(0), scroll(900), move(1500)]).deadClickCount).toBe(0);
    expect(facts([click(0), meta(500, 'https://shop.example/next'), full(501), move(1500)]).deadClickCount).toBe(0);
    expect(facts([click(0), { type: 3, data: { source: 5, id: 3, text: '***', isChecked: false }, timestamp: T + 300 }, move(1500)]).deadClickCount).toBe(0);
  });
  // A click as the tracker records it: `field: 1` on a text field (tracker/src/field-click.ts).
  const fieldClick = (at: number, id = 7) => ({ type: 3, data: { source: 2, type: 2, id, x: 100, y: 100, field: 1 }, timestamp: T + at });
  const focus = (at: number, id = 7) => ({ type: 3, data: { source: 2, type: 5, id }, timestamp: T + at });
  const typed = (at: number, id = 7) => ({ type: 3, data: { source: 5, id, text: '***', isChecked: false }, timestamp: T + at });
  const hidden = (at: number) => custom(at, 'tapedeck/hidden', {});
  it('a broken button or link is dead though it took the focus (Chromium focuses both on mousedown)', () => {
    expect(facts([focus(0), click(80), move(1500)]).deadClickCount).toBe(1);
    expect(facts([focus(0, 9), click(80, 300, 40, 9), move(600), focus(3000), click(3080), move(4200)]).deadClickCount).toBe(2);
    expect(inBatches([focus(0), click(80), move(1500), move(20_000)], 1).deadClickCount).toBe(1);
  });
  it('a working button is not dead: its DOM change, a failed request it made, or leaving within the second answers it', () => {
    expect(facts([focus(0), click(80), mutation(300), move(1500)]).deadClickCount).toBe(0);
    expect(facts([click(0), custom(400, 'tapedeck/request', { method: 'GET', url: '/x', status: 500, durationMs: 3 }), move(1500)]).deadClickCount).toBe(0);
    expect(facts([click(0), hidden(150)]).deadClickCount).toBe(0);
    expect(inBatches([click(0), hidden(150), meta(900, 'https://shop.example/next'), full(901), move(5000)], 1).deadClickCount).toBe(0);
  });
  it('a click into a text field is not dead, typed into now, later or never', () => {
    expect(facts([focus(0), fieldClick(80), move(1500), typed(3000)]).deadClickCount).toBe(0);
    expect(inBatches([focus(0), fieldClick(80), move(1500), typed(3000), move(20_000)], 2).deadClickCount).toBe(0);
    expect(facts([fieldClick(0), move(1500), move(30_000), hidden(40_000)]).deadClickCount).toBe(0);
    // Typing in a field does not answer a plain click later on.
    expect(facts([fieldClick(0), typed(2000), click(4000, 100, 100, 8), move(5500)]).deadClickCount).toBe(1);
  });
  it("a visit's last click is judged when the page goes away: dead after a second of nothing", () => {
    expect(facts([click(0), move(300)]).deadClickCount).toBe(0);
    expect(facts([click(0), move(300), hidden(8000)]).deadClickCount).toBe(1);
    expect(inBatches([move(0), click(100), move(300), hidden(60_000)], 3).deadClickCount).toBe(1);
    // The judgement lands on the click itself (the heatmap and the timeline mark it there).
    expect(sessionFacts([click(0), hidden(8000)] as never).marks.filter((m) => m.kind === 'dead')).toEqual([{ kind: 'dead', t: T }]);
  });
  it('a response later than 1 s comes too late', () => {
    expect(facts([click(0), mutation(1200)]).deadClickCount).toBe(1);
  });
  it('stays undecided until a later event says so, also across batches', () => {
    expect(facts([click(0), move(500)]).deadClickCount).toBe(0);
    expect(inBatches([click(0), move(500), move(2000)], 2).deadClickCount).toBe(1);
    expect(inBatches([click(0), move(500), mutation(800), move(2000)], 2).deadClickCount).toBe(0);
  });
});

describe('errors and failed requests', () => {
  it('counts uncaught errors, console.error calls (not warnings) and failed requests', () => {
    const result = facts([
      custom(0, 'tapedeck/error', { message: 'x is not defined', source: 'app.js:3', stack: '' }),
      custom(10, 'tapedeck/console', { level: 'error', message: 'boom' }),
      custom(20, 'tapedeck/console', { level: 'warn', message: 'careful' }),
      custom(30, 'tapedeck/request', { method: 'GET', url: '/api/missing', status: 404, durationMs: 12 }),
      custom(40, 'tapedeck', { stopped: 'mutation budget' }),
    ]);
    expect(result.errorCount).toBe(2);
    expect(result.failedRequestCount).toBe(1);
  });
});

describe('batches', () => {
  it('folding batch by batch gives the facts of the whole recording', () => {
    const events = [
      meta(0, 'https://shop.example/'),
      full(1),
      move(100),
      click(200),
      click(400),
      click(600),
      mutation(650),
      move(3000),
      click(4000),
      move(6000),
      custom(6100, 'tapedeck/error', { message: 'e', source: '', stack: '' }),
      meta(7000, 'https://shop.example/b'),
      full(7001),
      move(8000),
    ];
    const whole = facts(events);
    for (const size of [1, 3, 5]) {
      const folded = inBatches(events, size);
      expect({ ...folded, recentClicks: [], pendingClicks: [] }).toEqual({ ...whole, recentClicks: [], pendingClicks: [] });
    }
    expect(whole).toMatchObject({ clickCount: 4, rageClickCount: 1, deadClickCount: 1, errorCount: 1, pages: ['/', '/b'] });
  });
  it('the carried state stays bounded however many clicks a page makes', () => {
    const state = facts(Array.from({ length: 5000 }, (_, i) => click(i)));
    expect(state.recentClicks.length).toBeLessThanOrEqual(20);
    expect(state.pendingClicks.length).toBeLessThanOrEqual(20);
    expect(carriedFacts(state).length).toBeLessThan(2000);
  });
  it('reads a damaged carried state as a fresh one', () => {
    expect(readCarried('{oops')).toEqual({
      lastInputAt: null,
      recentClicks: [],
      pendingClicks: [],
      pageTrail: [],
      scrolling: null,
      onUnrecordedPage: false,
      blockedRuns: [],
      searchTextCount: 0,
    });
  });

  it('takes page titles and clicked texts for the search once each, the first MAX_SEARCH_TEXTS of a session across batches', () => {
    const texts = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => ({ kind: 'text' as const, t: from + i, text: `Item ${from + i}` }));
    const first = foldFacts(emptyFacts(), [...texts(0, 20), ...texts(0, 5)]);
    expect(first.searchTexts).toEqual(texts(0, 20).map((m) => m.text));
    const carried = readCarried(carriedFacts(first));
    const second = foldFacts({ ...emptyFacts(), ...carried }, texts(20, MAX_SEARCH_TEXTS + 10));
    expect(second.searchTexts).toEqual(texts(20, MAX_SEARCH_TEXTS).map((m) => m.text));
    expect(readCarried(carriedFacts(second)).searchTextCount).toBe(MAX_SEARCH_TEXTS);
  });

  it('carries the blocked nodes of the page view, joined batch after batch, until a full snapshot starts afresh', () => {
    const first = foldFacts(emptyFacts(), [{ kind: 'blocked', t: 1, runs: [[3, 6]], reset: true }]);
    const second = foldFacts(first, [
      {
        kind: 'blocked',
        t: 2,
        runs: [
          [7, 7],
          [20, 21],
        ],
        reset: false,
      },
    ]);
    expect(readCarried(carriedFacts(second)).blockedRuns).toEqual([
      [3, 7],
      [20, 21],
    ]);
    const fresh = foldFacts(second, [{ kind: 'blocked', t: 3, runs: [], reset: true }]);
    expect(carriedFacts(fresh)).not.toContain('blockedRuns');
  });

  it('carries a page not recorded to the next batch until a page loads', () => {
    const onAccount = foldFacts(emptyFacts(), [{ kind: 'unrecorded', t: 5 }]);
    expect(readCarried(carriedFacts(onAccount)).onUnrecordedPage).toBe(true);
    const back = foldFacts(onAccount, [{ kind: 'page', t: 6, path: '/cart' }]);
    expect(back.onUnrecordedPage).toBe(false);
    expect(carriedFacts(back)).not.toContain('onUnrecordedPage');
  });
});

describe('a recorded session (the demo recording)', () => {
  it('has its clicks, pages and active time, and no false rage or dead clicks', () => {
    const events = JSON.parse(gunzipSync(fs.readFileSync(path.resolve('server/replay/demo/desktop.json.gz'))).toString('utf8')) as never[];
    const { facts: result, marks } = sessionFacts(events);
    expect(result).toMatchObject({
      clickCount: 6,
      rageClickCount: 0,
      deadClickCount: 0,
      quickBackCount: 0,
      excessiveScrollCount: 0,
      errorCount: 0,
      pages: ['/'],
      entryUrl: '/',
      exitUrl: '/',
    });
    expect(result.activeMs).toBeGreaterThan(10_000);
    expect(marks.filter((m) => m.kind === 'click')).toHaveLength(6);
  });
});

describe('masking captured text', () => {
  it('hides e-mail-like strings and runs of 6 or more digits, spaced or not', () => {
    expect(maskText('user jane.doe+x@mail.example.com failed')).toBe('user [email] failed');
    expect(maskText('card 4111 1111 1111 1111 and id 1234567, order 12345')).toBe('card **** **** **** **** and id *******, order 12345');
    expect(maskText('call +44-20-7946-0958')).toBe('call +**-**-****-****');
  });
});
