import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { hasChromium, launchChromium, signedInContext } from '../helpers/browser.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { userSession } from '../helpers/auth.js';
import type { ReplayEvent } from '../../common/api-types.js';
import { makeCampaign } from '../integration/ingest-support.js';
import { desktopRecording, phoneRecording, recordedAgo, recordSession } from './replay-fixtures.js';
import { checkFilter, openFilters, saveSegmentAndClear } from './segments.js';

// Keep and annotate in Chromium: the owner stars a session, filters the list to starred ones,
// saves that as a segment and applies it again, and adds a note at a moment of the replay,
// which shows on the timeline and in the Activity list.

vi.setConfig({ testTimeout: 120_000 });

describe.skipIf(!hasChromium)('stars, segments and notes', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer({}, { privateDist: true }), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('stars a session, filters starred, saves and reapplies a segment, and notes a moment on the timeline', async () => {
    const owner = await userSession(server, 'Kim Keeper');
    const campaignId = await makeCampaign(server, { ownerId: owner.userId });
    const record = (events: ReplayEvent[]) => recordSession(server, campaignId, events);
    const kept = await record(recordedAgo(desktopRecording, 120_000));
    await record(recordedAgo(phoneRecording, 90_000));

    const context = await signedInContext(browser, server.config.publicUrl, owner, { viewport: { width: 1280, height: 800 } });
    const app = await context.newPage();
    await app.goto(`${server.config.publicUrl}/campaign/${campaignId}`);
    const cards = app.getByTestId('session-card');
    await expect.poll(() => cards.count()).toBe(2);
    const card = cards.filter({ hasText: kept });
    await card.getByRole('button', { name: 'Star', exact: true }).click();
    await card.getByRole('button', { name: 'Starred', exact: true, pressed: true }).waitFor();

    // Only the starred session, and the filter is in the URL.
    await openFilters(app);
    await checkFilter(app, 'Starred');
    await expect.poll(() => app.url()).toContain('starred=true');
    await expect.poll(() => cards.count()).toBe(1);
    await cards.filter({ hasText: kept }).waitFor();

    // Saved under a name, cleared, and picked again.
    const picker = await saveSegmentAndClear(app, 'Kept for the team');
    await expect.poll(() => cards.count()).toBe(2);
    expect(app.url()).not.toContain('starred=true');
    await picker.selectOption({ label: 'Kept for the team' });
    await expect.poll(() => app.url()).toContain('starred=true');
    await expect.poll(() => cards.count()).toBe(1);

    // The replay page: its star, and a note at the moment a marker took the player to.
    await app.goto(`${server.config.publicUrl}/campaign/${campaignId}/session/${kept}`);
    await app.getByRole('button', { name: 'Starred', exact: true, pressed: true }).waitFor();
    const timeline = app.getByRole('group', { name: 'Activity timeline' });
    await timeline.waitFor();
    const moment = timeline.getByRole('button', { name: /^Click.* at \d\d:\d\d$/ }).nth(1);
    const [, time] = /at (\d\d:\d\d)$/.exec((await moment.getAttribute('aria-label')) ?? '')!;
    await app.getByRole('slider', { name: 'Playback position' }).evaluate((el: HTMLInputElement) => el.scrollIntoView());
    await moment.click();
    // The note box opens on demand, at the player's moment.
    expect(await app.getByLabel(`Note at ${time}`).count()).toBe(0);
    await app.getByRole('button', { name: 'Add note' }).click();
    const noteField = app.getByLabel(`Note at ${time}`);
    await noteField.fill('The visitor hesitates here');
    await app.getByRole('button', { name: 'Save note' }).click();
    await noteField.waitFor({ state: 'detached' });
    await timeline.getByRole('button', { name: `Note: The visitor hesitates here at ${time}` }).waitFor();
    const activity = app.getByRole('region', { name: 'Session activity' });
    await activity.getByRole('list', { name: 'Notes' }).getByText('The visitor hesitates here').waitFor();
    expect(await activity.getByRole('button', { name: new RegExp(`^${time} Note: The visitor hesitates here$`) }).count()).toBe(1);
    await context.close();
  });
});
