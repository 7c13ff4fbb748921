// The recorded sites of the seek-fuzz test (seek-fuzz.test.ts) and the visits made to them with the
// real tracker: a shop that scrolls and rewrites its header with textContent and innerText, a
// TodoMVC-like list that adds, removes, moves and re-adds items while the visitor types, and a
// visit over two pages. Each visit spaces its steps so that most whole seconds show another page.
import type { Page } from 'playwright-core';
import { flushRecorder, recorderRunning } from './tracker-site.js';

const layout = (title: string, tag: string, body: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title>${tag}</head>
<body style="margin:0;font:16px sans-serif">${body}</body></html>`;

/** A long shop: a fixed header whose count, total and badges are rewritten (textContent, innerText, text data, innerHTML), a scrolling reviews box, "Add to cart" at the bottom. */
const shop = (tag: string) =>
  layout(
    'Shop',
    tag,
    `<header style="position:fixed;top:0;left:0;right:0;height:40px;background:#eee">
  <span id="cart">Cart (<span id="count">0</span>)</span> <span id="total">Total: $0</span> <b id="last">nothing yet</b>
  <span id="badge">0</span> <span id="summary"><b>0</b> items</span>
</header>
<div style="height:1200px;padding-top:60px">Kettles and teapots</div>
<div id="reviews" style="height:120px;overflow:auto;border:1px solid #999">
  ${Array.from({ length: 30 }, (_, i) => `<p>Review ${i + 1}: lovely</p>`).join('')}
</div>
<div style="height:1200px">More products</div>
<button id="add" type="button">Add to cart</button>
<div style="height:200px"></div>
<script>
  let count = 0;
  document.getElementById('add').addEventListener('click', () => {
    count += 1;
    document.getElementById('count').textContent = String(count);
    document.getElementById('total').innerText = 'Total: $' + count * 12;
    document.getElementById('last').textContent = 'Kettle ' + count;
    // As frameworks do: the text node's data changed in place, and markup set anew.
    document.getElementById('badge').firstChild.nodeValue = String(count);
    document.getElementById('summary').innerHTML = '<b>' + count + '</b> items';
  });
</script>`,
  );

/** A TodoMVC-like list: Enter adds the typed item, × removes one, "Eggs first" moves an item to the top. */
const todo = (tag: string) =>
  layout(
    'Todos',
    tag,
    `<h1>todos</h1><input id="new" placeholder="What needs to be done?">
<button id="first" type="button">Eggs first</button>
<ul id="list"></ul><p id="left">0 items left</p>
<script>
  const list = document.getElementById('list');
  const field = document.getElementById('new');
  const count = () => { document.getElementById('left').textContent = list.children.length + ' items left'; };
  field.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter' || !field.value) return;
    const item = document.createElement('li');
    item.dataset.title = field.value;
    item.innerHTML = '<input type="checkbox" class="toggle"><label></label><button type="button" class="destroy">x</button>';
    item.querySelector('label').textContent = field.value;
    item.querySelector('.destroy').addEventListener('click', () => { item.remove(); count(); });
    list.append(item);
    field.value = '';
    count();
  });
  document.getElementById('first').addEventListener('click', () => {
    const eggs = list.querySelector('[data-title="eggs"]');
    if (eggs) list.prepend(eggs);
  });
</script>`,
  );

/** The first page of a two-page visit: a long page with a link at its bottom. */
const pageA = (tag: string) =>
  layout(
    'Page A',
    tag,
    `<h1 id="title">Page A</h1><p id="note">Welcome</p>
<div style="height:1500px">Our story</div><a id="next" href="/fuzz-b.html">Go to page B</a><div style="height:300px"></div>`,
  );

/** The second page: a greeting rewritten by innerText, a field, a little scroll. */
const pageB = (tag: string) =>
  layout(
    'Page B',
    tag,
    `<h1 id="title">Page B</h1><p id="greeting">Hello</p><button id="wave" type="button">Wave</button>
<label>Name <input id="name"></label><div style="height:1400px">Details</div>
<script>
  let waves = 0;
  document.getElementById('wave').addEventListener('click', () => {
    waves += 1;
    document.getElementById('greeting').innerText = 'Waved ' + waves + ' times';
  });
</script>`,
  );

export const FUZZ_PAGES = { '/fuzz-shop.html': shop, '/fuzz-todo.html': todo, '/fuzz-a.html': pageA, '/fuzz-b.html': pageB };

/** A pause between a visitor's steps, so the steps fall in different seconds of the recording. */
const beat = (tab: Page) => tab.waitForTimeout(450);

/**
 * Clicks as a visitor does, coming from elsewhere on the page: the pointer's way to the target
 * reaches the recording in the same batch of mouse moves as the click's change, sent after it.
 */
async function clickFromAside(tab: Page, selector: string) {
  await tab.mouse.move(40, 600);
  await tab.click(selector);
}

async function shopVisit(tab: Page) {
  await tab.mouse.move(200, 300);
  await tab.mouse.wheel(0, 1150);
  await tab.waitForFunction(() => window.scrollY > 1000);
  await beat(tab);
  await tab.mouse.move(200, 100);
  await tab.locator('#reviews').hover();
  await tab.mouse.wheel(0, 300);
  await tab.waitForFunction(() => document.getElementById('reviews')!.scrollTop > 100);
  await beat(tab);
  for (let added = 1; added <= 5; added++) {
    await clickFromAside(tab, '#add');
    await tab.getByText(`Kettle ${added}`).waitFor();
    await beat(tab);
  }
  await tab.mouse.wheel(0, -1500);
  await tab.waitForFunction(() => window.scrollY < 1500);
  await beat(tab);
}

async function todoVisit(tab: Page) {
  const add = async (title: string) => {
    await tab.click('#new');
    await tab.keyboard.type(title);
    await tab.keyboard.press('Enter');
    await tab.locator('#list label', { hasText: title }).waitFor();
    await beat(tab);
  };
  await add('milk');
  await add('eggs');
  await add('tea');
  await tab.locator('li[data-title="eggs"] .toggle').check();
  await beat(tab);
  await clickFromAside(tab, '#first');
  await beat(tab);
  await clickFromAside(tab, 'li[data-title="milk"] .destroy');
  await tab.getByText('2 items left').waitFor();
  await beat(tab);
  await add('milk');
  await tab.click('#new');
  await tab.keyboard.type('bread');
  await beat(tab);
}

async function twoPageVisit(tab: Page, siteUrl: string) {
  await tab.mouse.move(300, 300);
  await tab.mouse.wheel(0, 700);
  await tab.waitForFunction(() => window.scrollY > 600);
  await beat(tab);
  await tab.mouse.wheel(0, 1000);
  await tab.waitForFunction(() => window.scrollY > 1200);
  await beat(tab);
  await tab.click('#next');
  await tab.waitForURL(`${siteUrl}/fuzz-b.html`);
  await recorderRunning(tab);
  await beat(tab);
  for (let wave = 1; wave <= 2; wave++) {
    await clickFromAside(tab, '#wave');
    await tab.getByText(`Waved ${wave} times`).waitFor();
    await beat(tab);
  }
  await tab.click('#name');
  await tab.keyboard.type('Ada');
  await beat(tab);
  await tab.mouse.wheel(0, 400);
  await tab.waitForFunction(() => window.scrollY > 300);
  await beat(tab);
}

export interface FuzzSite {
  name: string;
  /** Where the visit starts. */
  path: string;
  visit(tab: Page, siteUrl: string): Promise<void>;
}

export const FUZZ_SITES: FuzzSite[] = [
  { name: 'shop', path: '/fuzz-shop.html', visit: shopVisit },
  { name: 'todo', path: '/fuzz-todo.html', visit: todoVisit },
  { name: 'two pages', path: '/fuzz-a.html', visit: twoPageVisit },
];

/** The visit, recorded to its end: everything the recorder holds is sent before the tab closes. */
export async function recordVisit(tab: Page, site: FuzzSite, siteUrl: string): Promise<void> {
  await tab.goto(`${siteUrl}${site.path}`);
  await recorderRunning(tab);
  await beat(tab);
  await site.visit(tab, siteUrl);
  await flushRecorder(tab);
}
