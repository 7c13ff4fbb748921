import type { Page } from 'playwright-core';
import { describe, expect, it, vi } from 'vitest';
import { hasChromium, signedInContext } from '../helpers/browser.js';
import type { SessionsResponse } from '../../common/api-types.js';
import { flushRecorder, ownerTrackingSite, recorderRunning, useVisitorRig } from './tracker-site.js';
import { until } from './step.js';
import { expectAccessible } from './a11y.js';
import { checkFilter, openFilters } from './segments.js';
import { formatDurationMs } from '../../src/lib/format.js';

// A visitor who meets trouble (an error, a failed fetch, a rage click, a dead click), recorded by
// the real tracker; the owner finds the session by its problems and sees each one on the replay
// page's timeline and in its Activity list, and a marker takes the player to its moment.

vi.setConfig({ testTimeout: 120_000 });

const page = (loader: string) => `<!doctype html><html><head><meta charset="utf-8"><title>Trouble</title>${loader}</head><body>
<h1>Trouble shop</h1>
<button id="broken" type="button" style="position:absolute;left:20px;top:80px">Pay</button>
<button id="load" type="button" style="position:absolute;left:20px;top:140px">Load offers</button>
<button id="rage" type="button" style="position:absolute;left:20px;top:200px">Apply coupon</button>
<p id="dead" style="position:absolute;left:20px;top:260px">Free shipping</p>
<p id="out"></p>
<input id="name" placeholder="Your name" style="position:absolute;left:20px;top:320px">
<script>
  document.getElementById('broken').addEventListener('click', () => { throw new Error('payment failed'); });
  document.getElementById('load').addEventListener('click', () => { fetch('/api/offers').catch(() => {}); });
  document.getElementById('rage').addEventListener('click', () => { document.getElementById('out').textContent += '.'; });
</script></body></html>`;

/** The player's position in seconds, as its slider says. */
const playerSeconds = async (tab: Page) => Number(await tab.getByRole('slider', { name: 'Playback position' }).inputValue()) / 1000;

// Two products with one "Add to cart" each: which one was clicked shows only by where it is.
const shop = (loader: string) => `<!doctype html><html><head><meta charset="utf-8"><title>Tea shop</title>${loader}</head><body>
<h1>Tea shop</h1>
<ul><li><h2>Kettle</h2><button type="button">Add to cart</button></li><li><h2>Teapot</h2><button type="button">Add to cart</button></li></ul>
<p id="cart">Cart: 0</p>
<script>
  var n = 0;
  document.querySelectorAll('li button').forEach(function (b) { b.addEventListener('click', function () { document.getElementById('cart').textContent = 'Cart: ' + (++n); }); });
</script></body></html>`;

describe.skipIf(!hasChromium)('the replay page’s activity timeline', () => {
  const rig = useVisitorRig({ '/': page, '/shop': shop }); // its /api/offers answers 404, as any unknown path

  it('finds the session by its problems, shows each on the timeline and in the Activity list, and a marker seeks there', async () => {
    const { owner, campaignId } = await ownerTrackingSite(rig, 'Timeline Owner');
    const visitor = await rig.browser.newContext({ viewport: { width: 1000, height: 700 } });
    const tab = await visitor.newPage();
    await tab.goto(`${rig.site.url}/`);
    await recorderRunning(tab);
    await tab.click('#broken');
    await Promise.all([tab.waitForResponse((r) => r.url().includes('/api/offers')), tab.click('#load')]);
    for (let i = 0; i < 3; i++) await tab.click('#rage', { delay: 10 });
    await tab.click('#dead');
    // A click into a field, then typing slowly: the field's value is recorded when it loses the
    // focus, seconds after the click; the click is not dead.
    await tab.click('#name');
    await tab.keyboard.type('Ada', { delay: 500 });
    await tab.keyboard.press('Tab');
    const sessionId = await until('the session to show its trouble', async () => {
      await tab.mouse.move(500 + Math.round(Math.random() * 100), 500);
      await flushRecorder(tab);
      const response = await fetch(`${rig.server.url}/api/v1/streaming/sessions/${campaignId}/`, { headers: owner.headers });
      const [session] = ((await response.json()) as SessionsResponse).sessions;
      return (
        session && session.errorCount >= 1 && session.failedRequestCount >= 1 && session.rageClickCount >= 1 && session.deadClickCount >= 1 && session.sessionId
      );
    });
    await visitor.close();

    const context = await signedInContext(rig.browser, rig.server.config.publicUrl, owner, { viewport: { width: 1280, height: 800 } });
    const app = await context.newPage();
    await app.goto(`${rig.server.config.publicUrl}/campaign/${campaignId}`);
    await openFilters(app);
    await checkFilter(app, 'Has errors');
    await checkFilter(app, 'Has rage clicks');
    const problems = app.getByRole('list', { name: 'Problems' }).first();
    await problems.waitFor();
    for (const badge of [/\d+ errors?$/, /1 failed request$/, /1 rage click$/, /\d+ dead clicks?$/])
      await expect.poll(() => problems.getByText(badge).count()).toBeGreaterThan(0);

    await app.goto(`${rig.server.config.publicUrl}/campaign/${campaignId}/session/${sessionId}`);
    const timeline = app.getByRole('group', { name: 'Activity timeline' });
    await timeline.waitFor();
    const activity = app.getByRole('region', { name: 'Session activity' });
    for (const kind of ['Navigation', 'Click', 'Rage click', 'Dead click', 'Error', 'Failed request']) {
      // Moments closer than a marker's width share one marker, named after each of them.
      expect(await timeline.getByRole('button', { name: new RegExp(`(^|, )${kind}( on '[^']+')? at \\d\\d:\\d\\d(,|$)`) }).count(), kind).toBeGreaterThan(0);
      expect(await activity.getByRole('button', { name: new RegExp(`^\\d\\d:\\d\\d ${kind}`) }).count(), kind).toBeGreaterThan(0);
    }
    // Each click says what it landed on, as the visitor read it.
    for (const name of ["Click on 'Pay'", "Click on 'Load offers'", "Rage click on 'Apply coupon'", "Dead click on 'Free shipping'"]) {
      expect(await activity.getByRole('button', { name: new RegExp(`^\\d\\d:\\d\\d ${name}`) }).count(), name).toBeGreaterThan(0);
    }
    // The field's placeholder is masked in the recording, and stays masked here.
    expect(await activity.getByRole('button', { name: /^\d\d:\d\d Click on '\*+'$/ }).count(), 'the click into the field').toBe(1);
    expect(await activity.getByRole('button', { name: /Dead click on '\*+'/ }).count(), 'the click into the field typed into is not dead').toBe(0);

    // The rage-click marker takes the player to that moment (its name says the second).
    const rage = timeline.getByRole('button', { name: /(^|, )Rage click on 'Apply coupon' at / }).first();
    const [, mm, ss] = /Rage click on 'Apply coupon' at (\d\d):(\d\d)/.exec((await rage.getAttribute('aria-label')) ?? '')!;
    await app.getByRole('slider', { name: 'Playback position' }).evaluate((el: HTMLInputElement) => el.scrollIntoView());
    await rage.click();
    const target = Number(mm) * 60 + Number(ss);
    await expect.poll(() => playerSeconds(app)).toBeGreaterThanOrEqual(target - 1);
    expect(await playerSeconds(app)).toBeLessThanOrEqual(target + 1);

    // Filtering the list by kind keeps only that kind; the Console and Network tabs list the captured entries.
    await activity.getByRole('combobox', { name: 'Kind' }).selectOption('rage');
    await expect.poll(() => activity.getByRole('listitem').count()).toBe(1);
    await activity.getByRole('button', { name: 'Console' }).click();
    await activity.getByText(/Error: .*payment failed/).waitFor();
    await activity.getByRole('button', { name: 'Network' }).click();
    await activity.getByText(/GET \/api\/offers — 404/).waitFor();
    await activity.getByRole('button', { name: 'Pages' }).click();
    await activity.getByRole('heading', { name: 'Pages visited' }).waitFor();
    expect(await activity.getByRole('listitem').allTextContents()).toEqual(['00:00 /']);
    await expectAccessible(app, 'the replay page with its activity');

    // Keyboard shortcuts, with the focus on the page rather than in a field.
    await app.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await app.keyboard.press('?');
    const help = app.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.waitFor();
    for (const what of ['Play or pause', 'Back 5 seconds', 'Forward 5 seconds', 'Fullscreen']) expect(await help.getByText(what).count(), what).toBe(1);
    await expectAccessible(app, 'the shortcuts overlay');
    await app.keyboard.press('Escape');
    await help.waitFor({ state: 'hidden' });
    await app.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await app.keyboard.press('2');
    await expect.poll(() => app.getByRole('button', { name: '2x', exact: true }).getAttribute('aria-pressed')).toBe('true');
    const before = await playerSeconds(app);
    await app.keyboard.press('ArrowLeft');
    await expect.poll(() => playerSeconds(app)).toBeCloseTo(Math.max(0, before - 5), 0);
    await app.keyboard.press(' ');
    await app.getByRole('button', { name: 'Pause' }).waitFor();
    await app.keyboard.press(' ');
    await app.getByRole('button', { name: 'Play' }).waitFor();
    // In a field, keys are the field's own.
    await app.getByRole('button', { name: 'Activity', exact: true }).click();
    await activity.getByRole('combobox', { name: 'Kind' }).focus();
    await app.keyboard.press('4');
    expect(await app.getByRole('button', { name: '4x', exact: true }).getAttribute('aria-pressed')).toBe('false');

    // A link to this moment: copied with the player's second, and opened there.
    await app.getByRole('button', { name: 'Copy link to this moment' }).click();
    const second = Math.floor(await playerSeconds(app));
    await expect.poll(() => app.getByRole('status').filter({ hasText: '?t=' }).textContent()).toContain(`/session/${sessionId}?t=${second}`);
    await app.goto(`${rig.server.config.publicUrl}/campaign/${campaignId}/session/${sessionId}?t=${target}`);
    await timeline.waitFor();
    await expect.poll(() => playerSeconds(app)).toBeGreaterThanOrEqual(target - 1);
    expect(await playerSeconds(app)).toBeLessThanOrEqual(target + 1);
    await app.getByRole('button', { name: 'Play' }).waitFor();

    // Offline, the replay kept on the device brings its derived facts: /saved and the replay page
    // show the duration and the problem badges; the timeline and the Activity list mark each moment.
    await app.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    if (!(await app.evaluate(() => navigator.serviceWorker.controller !== null))) await app.reload();
    await app.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await app.goto(`${rig.server.config.publicUrl}/campaign/${campaignId}/session/${sessionId}`);
    await app.getByTestId('offline-state').getByText('Available offline').waitFor();
    // What the server says of the session (the visitor has gone: it no longer changes).
    const listed = await fetch(`${rig.server.url}/api/v1/streaming/sessions/${campaignId}/`, { headers: owner.headers });
    const [facts] = ((await listed.json()) as SessionsResponse).sessions;
    const duration = formatDurationMs(facts.durationMs);
    const plural = (count: number, one: string) => `${count} ${one}${count === 1 ? '' : 's'}`;
    const badges = [
      plural(facts.errorCount, 'error'),
      plural(facts.failedRequestCount, 'failed request'),
      plural(facts.rageClickCount, 'rage click'),
      plural(facts.deadClickCount, 'dead click'),
    ];
    await context.setOffline(true);
    await app.goto(`${rig.server.config.publicUrl}/saved`);
    const saved = app.getByTestId('saved-replay').filter({ hasText: sessionId });
    expect(await saved.locator('dt', { hasText: 'Duration' }).locator('xpath=following-sibling::dd').textContent()).toBe(duration);
    await saved.getByRole('list', { name: 'Problems' }).waitFor();
    expect(await saved.getByRole('list', { name: 'Problems' }).getByRole('listitem').allTextContents()).toEqual(badges);
    await saved.getByRole('link', { name: 'Open' }).click();
    await app.waitForURL(`${rig.server.config.publicUrl}/campaign/${campaignId}/session/${sessionId}`);
    await app.getByTestId('session-strip').getByText(`Duration: ${duration}`, { exact: true }).waitFor();
    expect(await app.locator('.session-info').getByRole('list', { name: 'Problems' }).getByRole('listitem').allTextContents()).toEqual(badges);
    await timeline.waitFor();
    for (const kind of ['Navigation', 'Click', 'Rage click', 'Dead click', 'Error', 'Failed request']) {
      expect(
        await timeline.getByRole('button', { name: new RegExp(`(^|, )${kind}( on '[^']+')? at \\d\\d:\\d\\d(,|$)`) }).count(),
        `offline ${kind}`,
      ).toBeGreaterThan(0);
      expect(await activity.getByRole('button', { name: new RegExp(`^\\d\\d:\\d\\d ${kind}`) }).count(), `offline ${kind}`).toBeGreaterThan(0);
    }
    await context.setOffline(false);

    // Delete this session from its replay: confirmed, then back to the sessions page without it.
    await app.getByRole('button', { name: 'Delete Session' }).click();
    const confirm = app.getByRole('dialog', { name: 'Delete Session?' });
    await confirm.getByText(sessionId).waitFor();
    await confirm.getByRole('button', { name: 'Delete Session' }).click();
    await app.waitForURL(`${rig.server.config.publicUrl}/campaign/${campaignId}`);
    const left = await fetch(`${rig.server.url}/api/v1/streaming/sessions/${campaignId}/`, { headers: owner.headers });
    expect(((await left.json()) as SessionsResponse).sessions).toEqual([]);
    await context.close();
  });

  it("says which of two 'Add to cart' buttons a click landed on, by the product it sits under", async () => {
    const { owner, campaignId } = await ownerTrackingSite(rig, 'Tilly Twins');
    const visitor = await rig.browser.newContext({ viewport: { width: 1000, height: 700 } });
    const tab = await visitor.newPage();
    await tab.goto(`${rig.site.url}/shop`);
    await recorderRunning(tab);
    for (const product of ['Teapot', 'Kettle', 'Teapot']) await tab.locator('li', { hasText: product }).getByRole('button').click();
    await tab.getByText('Cart: 3').waitFor();
    const sessionId = await until('the session to be stored', async () => {
      await flushRecorder(tab);
      const response = await fetch(`${rig.server.url}/api/v1/streaming/sessions/${campaignId}/`, { headers: owner.headers });
      const [session] = ((await response.json()) as SessionsResponse).sessions;
      return session && session.clickCount >= 3 && session.sessionId;
    });
    await visitor.close();

    const context = await signedInContext(rig.browser, rig.server.config.publicUrl, owner, { viewport: { width: 1280, height: 800 } });
    const app = await context.newPage();
    await app.goto(`${rig.server.config.publicUrl}/campaign/${campaignId}/session/${sessionId}`);
    const activity = app.getByRole('region', { name: 'Session activity' });
    const clicks = activity.getByRole('button', { name: /^\d\d:\d\d Click on / });
    await expect.poll(() => clicks.count()).toBe(3);
    expect((await clicks.allTextContents()).map((text) => text.replace(/^\d\d:\d\d /, ''))).toEqual([
      "Click on 'Add to cart' (Teapot)",
      "Click on 'Add to cart' (Kettle)",
      "Click on 'Add to cart' (Teapot)",
    ]);
    await context.close();
  });
});
