import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { hasChromium } from '../helpers/browser.js';
import type { Session, SessionsResponse } from '../../common/api-types.js';
import { flushRecorder, ownerTrackingSite, recorderRunning, useVisitorRig } from './tracker-site.js';
import { until } from './step.js';

// A visitor who meets trouble: an uncaught error, a failed fetch, three rapid clicks on one spot
// and a click on something that does nothing. The stored session must say so, and nothing the
// visitor typed or owned may leak through the captured messages.

const SECRET_EMAIL = 'jane.visitor@mail.example.com';
const SECRET_DIGITS = '4111222233334444';
const SECRET_TOKEN = 'reset-token-abc';

// The page keeps what it sends to ingest (the recorder takes the page's fetch as it loads),
// decompressed, in window.sent.
const keepSent = `<script>window.sent = []; const pageFetch = fetch;
  window.fetch = function (url, options) {
    const body = options && options.body;
    if (String(url).includes('/api/v1/ingest/') && body) window.sent.push(typeof body === 'string' ? Promise.resolve(body) : new Response(body.stream().pipeThrough(new DecompressionStream('gzip'))).text());
    return pageFetch.apply(this, arguments);
  };</script>`;

const page = (loader: string) => `<!doctype html><html><head><meta charset="utf-8"><title>Trouble</title>${keepSent}${loader}</head><body>
<h1>Trouble shop</h1>
<button id="broken" type="button" style="position:absolute;left:20px;top:80px">Pay</button>
<button id="load" type="button" style="position:absolute;left:20px;top:140px">Load offers</button>
<button id="rage" type="button" style="position:absolute;left:20px;top:200px">Apply coupon</button>
<p id="dead" style="position:absolute;left:20px;top:260px">Free shipping (looks like a link)</p>
<p id="out"></p>
<script>
  document.getElementById('broken').addEventListener('click', () => { throw new Error('payment failed for ${SECRET_EMAIL} card ${SECRET_DIGITS}'); });
  document.getElementById('load').addEventListener('click', () => {
    console.error('offers down for ${SECRET_EMAIL}');
    fetch('/api/offers/${SECRET_DIGITS}?email=${SECRET_EMAIL}#x').catch(() => {});
  });
  // The coupon button reacts (the rage is about it being slow), so its clicks are not dead.
  document.getElementById('rage').addEventListener('click', () => { document.getElementById('out').textContent += '.'; });
</script></body></html>`;

describe.skipIf(!hasChromium)('captured trouble, derived at ingest', () => {
  const rig = useVisitorRig({ '/': page }, { tracker: 'alone' }); // its /api/offers answers 404, as any unknown path

  it('stores errors, failed requests, rage and dead clicks on the session, masked', async () => {
    const { owner, campaignId } = await ownerTrackingSite(rig, 'Trouble Owner');
    const context = await rig.browser.newContext({ viewport: { width: 1000, height: 700 } });
    const tab = await context.newPage();
    await tab.goto(`${rig.site.url}/?reset=${SECRET_TOKEN}#step-${SECRET_TOKEN}`);
    await recorderRunning(tab);

    await tab.click('#broken');
    await Promise.all([tab.waitForResponse((r) => r.url().includes('/api/offers/')), tab.click('#load')]);
    for (let i = 0; i < 3; i++) await tab.click('#rage', { delay: 10 });
    await tab.click('#dead');

    // A dead click is known once a second has passed with no answer: keep the visitor moving
    // (each move is a later event) until the stored session shows it.
    const listed = await until('the session to show its trouble', async () => {
      await tab.mouse.move(500 + Math.round(Math.random() * 100), 500);
      await flushRecorder(tab);
      const response = await fetch(`${rig.server.url}/api/v1/streaming/sessions/${campaignId}/`, { headers: owner.headers });
      const [session] = ((await response.json()) as SessionsResponse).sessions;
      return session && session.errorCount >= 1 && session.failedRequestCount >= 1 && session.rageClickCount >= 1 && session.deadClickCount >= 1 && session;
    });
    // The page's address leaves the page without its query string and fragment (the server
    // scrubs again what it stores, so this reads the bodies as the page sent them).
    const bodies = await tab.evaluate(() => Promise.all((window as unknown as { sent: Promise<string>[] }).sent).then((all) => all.join('\n')));
    await context.close();

    expect(bodies).toContain(`"href":"${rig.site.url}/"`);
    expect(bodies).toContain(`"url":"${rig.site.url}/"`);
    expect(bodies).not.toContain(SECRET_TOKEN);

    const session: Session = listed;
    expect(session.errorCount).toBe(2); // the uncaught error and console.error
    expect(session.failedRequestCount).toBe(1);
    expect(session.rageClickCount).toBe(1);
    expect(session.deadClickCount).toBeGreaterThanOrEqual(1);
    expect(session.clickCount).toBeGreaterThanOrEqual(6);
    expect(session.pages).toEqual(['/']);

    const rows = await rig.server.db.selectFrom('chunks').select('data').where('campaign_id', '=', campaignId).execute();
    const raw = rows.map((row) => gunzipSync(row.data).toString('utf8')).join('\n');
    const captured = raw.match(/"tag":"tapedeck\/[a-z]+","payload":\{[^}]*\}/g) ?? [];
    expect(captured.some((c) => c.includes('tapedeck/error') && c.includes('payment failed for [email] card ****************'))).toBe(true);
    // Where it was thrown: the page's address without its query and fragment, the address's digits
    // masked once (ingest's second pass changes nothing).
    expect(captured.find((c) => c.includes('tapedeck/error'))).toMatch(new RegExp(`"source":"http://\\*{3}\\.\\*\\.\\*\\.\\*:${rig.site.port}/:\\d+"`));
    expect(captured.some((c) => c.includes('tapedeck/console') && c.includes('offers down for [email]'))).toBe(true);
    const request = captured.find((c) => c.includes('tapedeck/request'));
    // As the page asked for it, without its query string and fragment, the digit run masked.
    expect(request).toContain(`"url":"/api/offers/****************"`);
    expect(request).toContain('"status":404');
    expect(request).toContain('"method":"GET"');
    // Nothing of the visitor's leaks anywhere in what was stored.
    expect(raw).not.toContain(SECRET_EMAIL);
    expect(raw).not.toContain(SECRET_DIGITS);
  });
});
