// @vitest-environment jsdom
import { beforeAll, describe, expect, it } from 'vitest';
import { heat } from '../../../tracker/src/heat.js';
import { batchFlaw } from '../../../common/ingest-batch.js';

// jsdom lacks what every browser the tracker runs in has: CSS.escape and innerText (its text, here).
beforeAll(() => {
  (globalThis as { CSS?: unknown }).CSS ??= { escape: (value: string) => value.replace(/[^\w-]/g, (c) => `\\${c}`) };
  if (!('innerText' in HTMLElement.prototype))
    Object.defineProperty(HTMLElement.prototype, 'innerText', {
      get(this: HTMLElement) {
        return this.textContent;
      },
    });
});

const added: { tag: string; payload: Record<string, unknown> }[] = [];

function page(html: string) {
  document.body.innerHTML = html;
  added.length = 0;
  heat((tag, payload) => added.push({ tag: `tapedeck/${tag}`, payload: payload as Record<string, unknown> }));
}

const click = (selector: string) => document.querySelector(selector)!.dispatchEvent(new MouseEvent('click', { bubbles: true, clientX: 5, clientY: 5 }));
const clicks = () => added.filter((a) => a.tag === 'tapedeck/click').map((a) => a.payload);

describe('the click record', () => {
  it('names the nearest interactive element by its id, with its masked text', () => {
    page('<main><button id="add"><span class="icon">+</span> Add to cart for jane@example.com</button></main>');
    click('.icon');
    expect(clicks()).toEqual([expect.objectContaining({ s: '#add', t: '+ Add to cart for [email]' })]);
  });

  it('walks up by data attributes and place among its kind where there is no id', () => {
    page('<div data-section="hero"><p>Intro</p><p><button>Pay 4111 1111 1111 1111</button></p></div>');
    click('button');
    const [record] = clicks();
    expect(record.s).toBe('body>div[data-section="hero"]>p:nth-of-type(2)>button');
    expect(record.t).toBe('Pay **** **** **** ****');
  });

  it('names an element with no words by its label, alt text or title', () => {
    page('<button id="close" aria-label="Close"><svg></svg></button><img id="logo" alt="Leaf logo" role="button"><a id="help" href="/help" title="Help"></a>');
    for (const id of ['#close', '#logo', '#help']) click(id);
    // (Each test's page adds its listener: a click is recorded once per test before.)
    expect([...new Set(clicks().map((c) => c.t))]).toEqual(['Close', 'Leaf logo', 'Help']);
  });

  it('keeps no text of a masked or blocked element', () => {
    page('<div class="tapedeck-mask"><button id="secret">Jane Doe</button></div>');
    click('#secret');
    expect(clicks()[0].t).toBe('');
  });

  it('keeps no text where the recorder says it is hidden (strict, or a campaign-blocked element)', () => {
    document.body.innerHTML = '<div class="private"><button id="name">Jane Doe</button></div><button id="open">Open</button>';
    // Its own list: the listeners of the tests before stay on the window.
    const mine: Record<string, unknown>[] = [];
    heat(
      (tag, payload) => tag === 'click' && mine.push(payload as Record<string, unknown>),
      (el) => !!el.closest('.private'),
    );
    click('#name');
    click('#open');
    expect(mine.map((c) => c.t)).toEqual(['', 'Open']);
  });

  it('sends what ingest takes: a page view first, then the click', () => {
    page('<button id="add">Add</button>');
    click('#add');
    expect(added[0].tag).toBe('tapedeck/scroll');
    expect(added[0].payload).toMatchObject({ p: '/', v: 1 });
    const events = added.map(({ tag, payload }) => ({ type: 5, data: { tag, payload }, timestamp: 1000 }));
    expect(batchFlaw({ sessionId: 'heat-test-01', seq: 0, events })).toBeNull();
  });
});
