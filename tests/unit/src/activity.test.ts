import { describe, expect, it } from 'vitest';
import {
  activityItems,
  activityLabel,
  capturedEntries,
  currentItemIndex,
  MARKER_PX,
  markerGroups,
  type ActivityItem,
} from '../../../src/components/replay/activity.js';
import { CAPTURED_TAGS } from '../../../common/captured.js';
import { PEOPLE_TAGS } from '../../../common/people.js';

const T0 = 1_700_000_000_000;
const meta = (t: number, href: string) => ({ type: 4, timestamp: T0 + t, data: { href, width: 800, height: 600 } });
const snapshot = (t: number) => ({ type: 2, timestamp: T0 + t, data: {} });
const click = (t: number, x = 10, y = 10) => ({ type: 3, timestamp: T0 + t, data: { source: 2, type: 2, x, y } });
const move = (t: number) => ({ type: 3, timestamp: T0 + t, data: { source: 1, positions: [] } });
const mutation = (t: number) => ({ type: 3, timestamp: T0 + t, data: { source: 0 } });
const custom = (t: number, tag: string, payload: object) => ({ type: 5, timestamp: T0 + t, data: { tag, payload } });

describe('activity items', () => {
  const events = [
    meta(0, 'https://shop.example/cart?x=1'),
    snapshot(1),
    click(1000),
    mutation(1100),
    click(12_000),
    click(12_200),
    click(12_400),
    mutation(12_500),
    custom(13_000, CAPTURED_TAGS.error, { message: 'boom', source: 'a.js:1', stack: '' }),
    custom(14_000, CAPTURED_TAGS.request, { method: 'POST', url: '/api/pay', status: 500, durationMs: 20 }),
    custom(14_500, CAPTURED_TAGS.console, { level: 'warn', message: 'careful' }),
    move(30_000),
  ];

  it('lists navigations, clicks, rage clicks, errors, failed requests and inactivity at their offsets', () => {
    const items = activityItems(events);
    expect(items.map((i) => [i.kind, i.at])).toEqual(
      [
        ['navigation', 0],
        ['click', 1000],
        ['inactivity', 1000],
        ['click', 12_000],
        ['click', 12_200],
        ['click', 12_400],
        ['rage', 12_400],
        ['error', 13_000],
        ['request', 14_000],
        ['inactivity', 12_400],
      ].sort((a, b) => (a[1] as number) - (b[1] as number)),
    );
    expect(items.find((i) => i.kind === 'navigation')?.detail).toBe('/cart');
    expect(items.filter((i) => i.kind === 'inactivity').map((i) => i.durationMs)).toEqual([11_000, 17_600]);
  });

  it('lists quick backs and bursts of excessive scrolling, named as the badges are', () => {
    const scroll = (t: number, y: number) => ({ type: 3, timestamp: T0 + t, data: { source: 3, id: 1, x: 0, y } });
    const items = activityItems([
      meta(0, 'https://shop.example/product'),
      meta(5000, 'https://shop.example/cart'),
      meta(8000, 'https://shop.example/product'),
      ...[0, 400, 0, 400, 0, 400].map((y, i) => scroll(9000 + i * 200, y)),
    ]);
    const frustration = items.filter((i) => i.kind === 'quickBack' || i.kind === 'scrolling');
    expect(frustration.map((i) => [i.kind, i.at])).toEqual([
      ['quickBack', 8000],
      ['scrolling', 10_000],
    ]);
    expect(frustration.map(activityLabel)).toEqual(['Quick back at 00:08', 'Excessive scrolling at 00:10']);
    expect(markerGroups(frustration, 12_000, 1000).map((g) => g.kind)).toEqual(['quickBack', 'scrolling']);
  });

  it('names a marker by kind and time', () => {
    expect(activityLabel({ kind: 'rage', at: 12_400 })).toBe('Rage click at 00:12');
  });

  it('finds the item being played', () => {
    const items = activityItems(events);
    expect(currentItemIndex(items, 0)).toBe(0);
    expect(items[currentItemIndex(items, 13_500)].kind).toBe('error');
    expect(currentItemIndex([], 5000)).toBe(-1);
  });

  it('splits captured entries into console and network', () => {
    const { console, network } = capturedEntries(events);
    expect(console).toEqual([
      { at: 13_000, text: 'Error: boom' },
      { at: 14_500, text: 'console.warn: careful' },
    ]);
    expect(network).toEqual([{ at: 14_000, text: 'POST /api/pay — 500' }]);
  });

  it('has nothing for an empty recording', () => {
    expect(activityItems([])).toEqual([]);
  });

  it("lists the site's events by name, in order, as moments of their own", () => {
    const told = [
      meta(0, 'https://shop.example/'),
      snapshot(1),
      custom(2000, PEOPLE_TAGS.event, { name: 'signup' }),
      custom(3000, PEOPLE_TAGS.identify, { userId: 'customer-4711' }),
      custom(4000, PEOPLE_TAGS.event, { name: 'checkout', props: { total: 42 } }),
    ];
    const items = activityItems(told).filter((i) => i.kind === 'event');
    expect(items.map(activityLabel)).toEqual(['Event: signup at 00:02', 'Event: checkout at 00:04']);
  });
});

describe('timeline markers', () => {
  const items: ActivityItem[] = [
    { kind: 'navigation', at: 0 },
    { kind: 'inactivity', at: 0, durationMs: 20_000 },
    { kind: 'click', at: 200 },
    { kind: 'click', at: 10_000 },
    { kind: 'rage', at: 10_100 },
    { kind: 'click', at: 10_100 },
    { kind: 'error', at: 59_900 },
  ];
  it('never overlap: moments closer than a target share one, named after each, coloured by the one most worth a look', () => {
    const groups = markerGroups(items, 60_000, 300);
    expect(groups.map(({ kind, at, label }) => ({ kind, at, label }))).toEqual([
      { kind: 'navigation', at: 0, label: 'Navigation at 00:00, Click at 00:00' },
      { kind: 'rage', at: 10_000, label: 'Click at 00:10, Rage click at 00:10' },
      { kind: 'error', at: 59_900, label: 'Error at 00:59' },
    ]);
    for (let i = 1; i < groups.length; i++) expect(groups[i].x - groups[i - 1].x).toBeGreaterThanOrEqual(MARKER_PX);
    // Inside the strip, the first and last half a target in from its ends.
    expect([groups[0].x, groups[2].x]).toEqual([MARKER_PX / 2, 300 - MARKER_PX / 2]);
  });
  it('keep moments a target apart as markers of their own', () => {
    expect(markerGroups(items, 60_000, 30_000).map((g) => g.label)).toEqual([
      'Navigation at 00:00',
      'Click at 00:00',
      'Click at 00:10',
      'Rage click at 00:10, Click at 00:10',
      'Error at 00:59',
    ]);
  });
});

describe('what a click landed on', () => {
  const el = (id: number, tagName: string, attributes: object, childNodes: object[] = []) => ({ type: 2, id, tagName, attributes, childNodes });
  const text = (id: number, textContent: string) => ({ type: 3, id, textContent });
  const page = {
    type: 0,
    id: 1,
    childNodes: [
      el(2, 'html', {}, [
        el(3, 'body', {}, [
          el(4, 'button', { id: 'add' }, [el(5, 'svg', {}), el(6, 'span', {}, [text(7, '  Add to\n cart ')])]),
          el(8, 'a', { href: '/help', title: 'Help centre' }, [el(9, 'img', { src: 'i.png' })]),
          el(10, 'button', { 'aria-label': 'Close dialog' }, [text(11, '×')]),
          el(12, 'p', { class: 'masked' }, [text(13, '********')]),
          el(14, 'div', {}, []),
          el(15, 'img', { alt: 'Kettle, blue' }),
        ]),
      ]),
    ],
  };
  const full = { type: 2, timestamp: T0 + 1, data: { node: page, initialOffset: { top: 0, left: 0 } } };
  const clickOn = (t: number, id: number) => ({ type: 3, timestamp: T0 + t, data: { source: 2, type: 2, id, x: 5, y: 5 } });
  const named = (events: object[]) =>
    activityItems(events as never)
      .filter((item) => item.kind === 'click')
      .map((item) => activityLabel(item).replace(/ at \d\d:\d\d$/, ''));

  it("names the element by its text, label, alt or title, from the clicked element or its button ('Click on …')", () => {
    expect(named([full, clickOn(100, 7), clickOn(200, 5), clickOn(300, 9), clickOn(400, 10), clickOn(500, 15), clickOn(600, 14)])).toEqual([
      "Click on 'Add to cart'",
      "Click on 'Add to cart'",
      "Click on 'Help centre'",
      "Click on 'Close dialog'",
      "Click on 'Kettle, blue'",
      'Click',
    ]);
  });
  it('keeps masked text masked, and names as of the moment of the click', () => {
    const changed = { type: 3, timestamp: T0 + 250, data: { source: 0, adds: [], removes: [], texts: [{ id: 7, value: 'Added!' }], attributes: [] } };
    const added = {
      type: 3,
      timestamp: T0 + 260,
      data: {
        source: 0,
        adds: [
          { parentId: 3, nextId: null, node: el(20, 'button', {}, []) },
          { parentId: 20, nextId: null, node: text(21, 'Checkout') },
        ],
        removes: [],
        texts: [],
        attributes: [],
      },
    };
    expect(named([full, clickOn(100, 13), clickOn(200, 4), changed, added, clickOn(300, 4), clickOn(400, 21)])).toEqual([
      "Click on '********'",
      "Click on 'Add to cart'",
      "Click on 'Added!'",
      "Click on 'Checkout'",
    ]);
  });
  it('shortens a long name and survives a very deep page', () => {
    let deep: object = text(100_000, 'deep text');
    for (let id = 99_999; id > 50_000; id--) deep = el(id, 'div', {}, [deep]);
    const long = el(30, 'button', {}, [text(31, 'x'.repeat(100))]);
    const tree = { type: 0, id: 1, childNodes: [el(2, 'html', {}, [el(3, 'body', {}, [long, deep])])] };
    const items = named([{ type: 2, timestamp: T0 + 1, data: { node: tree } }, clickOn(100, 31), clickOn(200, 100_000)]);
    expect(items[0]).toBe(`Click on '${'x'.repeat(39)}…'`);
    expect(items[1]).toBe("Click on 'deep text'");
  });

  it("tells clicked elements with one name apart by where they are: 'Add to cart' (Kettle)", () => {
    const product = (id: number, name: string) =>
      el(id, 'li', {}, [el(id + 1, 'h2', {}, [text(id + 2, name)]), el(id + 3, 'button', {}, [text(id + 4, 'Add to cart')])]);
    const shop = {
      type: 0,
      id: 1,
      childNodes: [
        el(2, 'html', {}, [
          el(3, 'body', {}, [
            el(4, 'h1', {}, [text(5, 'Tea shop')]),
            el(6, 'ul', {}, [product(10, 'Kettle'), product(20, 'Teapot')]),
            el(30, 'aside', { 'aria-label': 'Newsletter' }, [el(31, 'div', {}, [el(32, 'button', {}, [el(33, 'svg', {})])])]),
            el(40, 'button', {}, [text(41, 'Checkout')]),
            el(50, 'div', { class: 'twin' }, [el(51, 'button', {}, [text(52, 'Help')]), el(53, 'button', {}, [text(54, 'Help')])]),
          ]),
        ]),
      ],
    };
    const shopSnapshot = { type: 2, timestamp: T0 + 1, data: { node: shop, initialOffset: { top: 0, left: 0 } } };
    expect(
      named([shopSnapshot, clickOn(100, 24), clickOn(200, 14), clickOn(300, 13), clickOn(400, 33), clickOn(500, 41), clickOn(600, 53), clickOn(700, 51)]),
    ).toEqual([
      "Click on 'Add to cart' (Teapot)",
      "Click on 'Add to cart' (Kettle)",
      "Click on 'Add to cart' (Kettle)",
      "Click on 'Button' (Newsletter)",
      "Click on 'Checkout'",
      "Click on 'Help' (1st of 2)",
      "Click on 'Help' (2nd of 2)",
    ]);
  });
});
