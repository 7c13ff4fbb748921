// Records the landing page's demo replay: our own small shop page, served on 127.0.0.1, opened in
// Chromium at desktop and phone size, recorded with @rrweb/record while a scripted visitor browses,
// adds to the cart, fills the checkout form and scrolls. Writes server/replay/demo/{desktop,mobile}.json.gz.
// Run: npx tsx scripts/record-demo.ts   (needs a Chromium; see tests/helpers/browser.ts)
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../tests/helpers/browser.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const recorderPath = path.join(root, 'node_modules/@rrweb/record/dist/record.umd.min.cjs');
const outDir = path.join(root, 'server/replay/demo');

// Everything inline (styles, SVG pictures) so the replay needs nothing from this server later.
const PRODUCTS = [
  ['Morning Roast', 'Whole beans, 500 g', '14.90', '#8b5a2b'],
  ['Ceramic Mug', 'Hand-glazed, 300 ml', '19.00', '#3d7ea6'],
  ['Pour-over Kit', 'Dripper, filters, scale', '42.50', '#5b8c5a'],
  ['Espresso Blend', 'Dark roast, 250 g', '11.20', '#4a2c2a'],
  ['Travel Tumbler', 'Keeps it hot for 6 h', '24.00', '#c0504d'],
  ['Milk Frother', 'Rechargeable', '29.90', '#8064a2'],
];

const page = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Bean & Brew — demo shop</title>
<style>
  * { box-sizing: border-box; }
  body { margin: 0; font-family: system-ui, sans-serif; color: #1f2933; background: #f7f5f2; }
  header { position: sticky; top: 0; display: flex; justify-content: space-between; align-items: center;
    padding: 14px 24px; background: #1f2933; color: #fff; z-index: 2; }
  header b { font-size: 20px; } #cart { background: #f0b429; color: #1f2933; border-radius: 16px; padding: 6px 14px; font-weight: 600; }
  .hero { padding: 48px 24px; background: linear-gradient(120deg, #f0b429, #de911d); }
  .hero h1 { margin: 0 0 8px; font-size: 34px; } .hero p { margin: 0; font-size: 18px; }
  .grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(220px, 1fr)); gap: 20px; padding: 24px; }
  .card { background: #fff; border-radius: 12px; padding: 16px; box-shadow: 0 2px 6px rgba(0,0,0,.08); }
  .card svg { width: 100%; height: 120px; border-radius: 8px; }
  .card h3 { margin: 12px 0 4px; } .card p { margin: 0 0 12px; color: #52606d; }
  button { font: inherit; border: 0; border-radius: 8px; padding: 10px 16px; cursor: pointer; background: #1f2933; color: #fff; }
  button.added { background: #3f9142; }
  form { background: #fff; margin: 24px; padding: 24px; border-radius: 12px; display: grid; gap: 12px; max-width: 560px; }
  label { display: grid; gap: 4px; font-weight: 600; } input, select, textarea { font: inherit; padding: 10px; border: 1px solid #cbd2d9; border-radius: 8px; }
  #thanks { display: none; margin: 24px; padding: 24px; background: #e3f9e5; border-radius: 12px; font-size: 20px; }
  footer { padding: 32px 24px; color: #7b8794; }
</style></head>
<body>
<header><b>Bean &amp; Brew</b><span id="cart">Cart: 0</span></header>
<section class="hero"><h1>Fresh coffee, roasted this week</h1><p>Free shipping on orders over $40.</p></section>
<main class="grid">
${PRODUCTS.map(
  ([name, blurb, price, colour], i) => `<div class="card">
  <svg viewBox="0 0 200 120"><rect width="200" height="120" fill="${colour}"/><circle cx="100" cy="60" r="34" fill="#fff" opacity=".85"/>
  <text x="100" y="66" font-size="18" text-anchor="middle" fill="${colour}">${i + 1}</text></svg>
  <h3>${name}</h3><p>${blurb}</p><button data-product="${i}">Add to cart — $${price}</button></div>`,
).join('\n')}
</main>
<form id="checkout">
  <h2>Checkout</h2>
  <label>Full name <input name="name" autocomplete="off"></label>
  <label>Email <input name="email" type="email" autocomplete="off"></label>
  <label>Shipping <select name="shipping"><option>Standard (3–5 days)</option><option>Express (1 day)</option></select></label>
  <label>Note for the roaster <textarea name="note" rows="3"></textarea></label>
  <button type="submit">Place order</button>
</form>
<div id="thanks">Thank you! Your coffee is on its way.</div>
<footer>Bean &amp; Brew is a demo shop for Tapedeck's sample recording.</footer>
<script>
  let count = 0;
  document.querySelectorAll('[data-product]').forEach((button) => button.addEventListener('click', () => {
    count += 1; document.getElementById('cart').textContent = 'Cart: ' + count;
    button.classList.add('added'); button.textContent = 'Added ✓';
  }));
  document.getElementById('checkout').addEventListener('submit', (event) => {
    event.preventDefault(); event.target.style.display = 'none'; document.getElementById('thanks').style.display = 'block';
  });
</script>
<script src="/record.js"></script>
<script>
  window.__events = [];
  rrwebRecord.record({ emit: (e) => window.__events.push(e), maskAllInputs: true, sampling: { mousemove: 50, scroll: 100 } });
</script>
</body></html>`;

function serve(): Promise<http.Server> {
  const recorder = fs.readFileSync(recorderPath);
  const server = http.createServer((request, response) => {
    if (request.url === '/record.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(recorder);
    } else {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const pause = (page: Page, ms: number) => page.waitForTimeout(ms);

async function scrollTo(page: Page, selector: string): Promise<void> {
  await page.evaluate((s) => document.querySelector(s)?.scrollIntoView({ behavior: 'smooth', block: 'center' }), selector);
  await pause(page, 900);
}

/** A visitor's few minutes on the shop, shortened: browse, add two items, check out. */
async function browse(page: Page, mobile: boolean): Promise<void> {
  const press = async (selector: string) => {
    const target = page.locator(selector).first();
    await target.scrollIntoViewIfNeeded();
    if (mobile) await target.tap();
    else {
      const box = await target.boundingBox();
      if (box) await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 15 });
      await target.click();
    }
    await pause(page, 600);
  };
  await pause(page, 1200);
  if (!mobile) await page.mouse.move(400, 300, { steps: 10 });
  await scrollTo(page, '[data-product="1"]');
  await press('[data-product="1"]');
  await scrollTo(page, '[data-product="4"]');
  await press('[data-product="4"]');
  await scrollTo(page, '#checkout');
  await press('input[name="name"]');
  await page.keyboard.type('Grace Visitor', { delay: 70 });
  await press('input[name="email"]');
  await page.keyboard.type('grace@example.com', { delay: 60 });
  await page.selectOption('select[name="shipping"]', { index: 1 });
  await pause(page, 500);
  await press('textarea[name="note"]');
  await page.keyboard.type('Medium grind, please.', { delay: 60 });
  await press('#checkout button[type="submit"]');
  await pause(page, 1500);
  await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'smooth' }));
  await pause(page, 1200);
}

async function record(browser: Browser, url: string, mobile: boolean): Promise<unknown[]> {
  const context = await browser.newContext(
    mobile ? { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 3 } : { viewport: { width: 1366, height: 768 } },
  );
  const tab = await context.newPage();
  await tab.goto(url);
  await browse(tab, mobile);
  const events = await tab.evaluate(() => (window as unknown as { __events: unknown[] }).__events);
  await context.close();
  return events;
}

async function main(): Promise<void> {
  const server = await serve();
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const browser = await launchChromium();
  try {
    fs.mkdirSync(outDir, { recursive: true });
    for (const [name, mobile] of [
      ['desktop', false],
      ['mobile', true],
    ] as const) {
      const events = await record(browser, url, mobile);
      const file = path.join(outDir, `${name}.json.gz`);
      fs.writeFileSync(file, gzipSync(JSON.stringify(events), { level: 9 }));
      console.log(`${name}: ${events.length} events, ${fs.statSync(file).size} bytes → ${path.relative(root, file)}`);
    }
  } finally {
    await browser.close();
    server.close();
  }
}

await main();
