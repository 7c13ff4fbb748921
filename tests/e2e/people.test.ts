import { describe, expect, it, vi } from 'vitest';
import { hasChromium, signedInContext } from '../helpers/browser.js';
import { PAGE_STUB } from '../../common/people.js';
import type { SessionsResponse } from '../../common/api-types.js';
import { flushRecorder, ownerTrackingSite, recorderRunning, useVisitorRig } from './tracker-site.js';
import { openFilters, saveSegmentAndClear } from './segments.js';

// People in Chromium: a site identifies its visitor (before its tag has even run, through the
// documented stub) and sends an event; the owner finds the session by user and by event, sees
// the traits and the event on the timeline, saves the filter as a segment, stars the session and
// leaves a note at the event's moment, opens the person and erases them (star and note too).

vi.setConfig({ testTimeout: 120_000 });

const page = (tag: string) => `<!doctype html><html><head><meta charset="utf-8"><title>Account</title>
<script>${PAGE_STUB}
tapedeck.identify('customer-4711', { plan: 'pro', seats: 3 });
tapedeck.tag('team', 'blue');</script>${tag}</head><body>
<h1>Your account</h1>
<button id="signup" type="button" onclick="tapedeck.event('signup', { step: 2 })">Sign up</button>
</body></html>`;

describe.skipIf(!hasChromium)('people', () => {
  const rig = useVisitorRig({ '/account.html': page });

  it('finds an identified visitor by user and by event, shows what the site told, and erases the person', async () => {
    const { owner, campaignId } = await ownerTrackingSite(rig, 'Pat People');

    // The visitor.
    const visit = await rig.browser.newContext({ viewport: { width: 1000, height: 700 } });
    const tab = await visit.newPage();
    await tab.goto(`${rig.site.url}/account.html`);
    await recorderRunning(tab);
    await tab.click('#signup');
    // The site stops recording and starts it again: what it sends meanwhile is not recorded.
    await tab.evaluate(() => {
      const tapedeck = (window as unknown as { tapedeck: Record<string, (...args: unknown[]) => void> }).tapedeck;
      tapedeck.stop();
      tapedeck.event('while-stopped');
      tapedeck.start();
      tapedeck.event('after-restart');
    });
    await flushRecorder(tab);
    const listed = async (query: string) => {
      const response = await fetch(`${rig.server.url}/api/v1/streaming/sessions/${campaignId}/?${query}`, { headers: owner.headers });
      return ((await response.json()) as SessionsResponse).sessions;
    };
    await expect.poll(async () => (await listed('event=signup')).length, { timeout: 20_000 }).toBe(1);
    await expect.poll(async () => (await listed('event=after-restart')).length, { timeout: 20_000 }).toBe(1);
    expect(await listed('event=while-stopped')).toEqual([]);
    const [session] = await listed('user=customer-4711');
    await visit.close();

    // The owner finds the session by user, then by event.
    const context = await signedInContext(rig.browser, rig.server.config.publicUrl, owner, { viewport: { width: 1280, height: 800 } });
    const app = await context.newPage();
    await app.goto(`${rig.server.config.publicUrl}/campaign/${campaignId}`);
    const cards = app.getByTestId('session-card');
    await openFilters(app);
    await app.getByLabel('User', { exact: true }).fill('customer-4711');
    await expect.poll(() => app.url()).toContain('user=customer-4711');
    await expect.poll(() => cards.count()).toBe(1);
    await expect.poll(() => cards.getByTestId('session-user').textContent()).toBe('customer-4711');
    await app.getByLabel('User', { exact: true }).fill('someone-else');
    await expect.poll(() => cards.count()).toBe(0);
    await app.getByLabel('User', { exact: true }).fill('');
    await app.getByLabel('Event', { exact: true }).fill('signup');
    await expect.poll(() => app.url()).toContain('event=signup');
    await expect.poll(() => cards.count()).toBe(1);
    // Kept for later: the filter saved as a segment, and picked again after clearing.
    const picker = await saveSegmentAndClear(app, 'Signed up');
    await expect.poll(() => app.url()).not.toContain('event=signup');
    await picker.selectOption({ label: 'Signed up' });
    await expect.poll(() => app.url()).toContain('event=signup');
    await expect.poll(() => cards.count()).toBe(1);

    // The replay: traits, tags and events, and the event on the timeline and in the Activity list.
    await cards.getByRole('link', { name: 'Watch Replay' }).click();
    await app.waitForURL((url) => url.pathname.endsWith(`/session/${session.sessionId}`)); // the list's filters ride along
    const traits = app.getByTestId('people-traits');
    await expect.poll(() => traits.textContent()).toContain('pro');
    expect(await app.getByTestId('people-tags').textContent()).toContain('blue');
    expect(await app.getByTestId('people-events').textContent()).toContain('signup');
    const timeline = app.getByRole('group', { name: 'Activity timeline' });
    const marker = timeline.getByRole('button', { name: /Event: signup at \d\d:\d\d/ });
    await marker.waitFor();

    // Starred, and a note at the moment of the event: on the timeline beside it.
    await app.getByRole('button', { name: 'Star', exact: true }).click();
    await app.getByRole('button', { name: 'Starred', exact: true, pressed: true }).waitFor();
    const [, time] = /at (\d\d:\d\d)$/.exec((await marker.getAttribute('aria-label')) ?? '')!;
    await app.getByRole('slider', { name: 'Playback position' }).evaluate((el: HTMLInputElement) => el.scrollIntoView());
    await marker.click();
    await app.getByRole('button', { name: 'Add note' }).click();
    await app.getByLabel(`Note at ${time}`).fill('Signed up on the second step');
    await app.getByRole('button', { name: 'Save note' }).click();
    await timeline.getByRole('button', { name: `Note: Signed up on the second step at ${time}` }).waitFor();
    expect(await listed('starred=true')).toHaveLength(1);

    // The person: their sessions, then erased after typing their id.
    await app.getByRole('link', { name: 'All sessions of this person' }).click();
    await app.waitForURL(`**/person/customer-4711`);
    // Their sessions titled as the list titles them (who, where, what), each opening its replay.
    await expect.poll(() => app.getByTestId('session-card').getByTestId('session-user').allTextContents()).toEqual(['customer-4711']);
    await app.getByRole('button', { name: 'Erase this person' }).click();
    const erase = app.getByRole('button', { name: 'Erase', exact: true });
    expect(await erase.isDisabled()).toBe(true);
    await app.getByLabel('Type the user id to confirm').fill('customer-4711');
    await erase.click();
    await app.waitForURL(`**/campaign/${campaignId}`);
    await expect.poll(() => cards.count()).toBe(0);
    expect(await listed('')).toEqual([]);
    // Nothing of the person is left: no star, no note.
    expect(await listed('starred=true')).toEqual([]);
    expect(await rig.server.db.selectFrom('notes').select('id').where('campaign_id', '=', campaignId).execute()).toEqual([]);
    expect(await rig.server.db.selectFrom('session_stars').select('session_id').where('campaign_id', '=', campaignId).execute()).toEqual([]);
    await context.close();
  });
});
