import type { Page, Response } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { hasChromium } from '../helpers/browser.js';
import { openSse } from '../helpers/sse.js';
import { flushRecorder, ownerTrackingSite, recorderRunning, useVisitorRig } from './tracker-site.js';

// The real tracker in Chromium, on a paused clock: while ingest's replies say a viewer is
// present (x-tapedeck-live), each second's events leave in their own batch; 10 s after the last
// such reply it is back to one batch every 5 s.

describe.skipIf(!hasChromium)('the tracker while someone watches live', () => {
  const rig = useVisitorRig({}, { tracker: 'alone', env: { RATE_BATCHES_PER_SESSION: '0' } });

  async function until(probe: () => boolean, tries = 200): Promise<void> {
    for (let i = 0; i < tries; i++) {
      if (probe()) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('condition not met in time');
  }

  const seqOf = (page: Page) => page.evaluate(() => Number(JSON.parse(sessionStorage.getItem('tapedeck') ?? '{}').seq));

  /** A click then one second of the page's paused clock, `rounds` times: how many batches those seconds made. */
  async function secondsOfClicks(page: Page, rounds: number): Promise<number> {
    const before = await seqOf(page);
    for (let i = 0; i < rounds; i++) {
      await page.click('#buy');
      await page.clock.runFor(1000);
    }
    return (await seqOf(page)) - before;
  }

  it('flushes every second after a reply with x-tapedeck-live, and stops 10 s after the last one', async () => {
    const { owner, campaignId } = await ownerTrackingSite(rig, 'Live Tracker Owner');
    const page = await (await rig.browser.newContext()).newPage();
    const answers: Response[] = [];
    page.on('response', (r) => r.url().includes('/api/v1/ingest/') && r.request().method() === 'POST' && answers.push(r));
    await page.clock.install();
    await page.goto(`${rig.site.url}/checkout.html`);
    await recorderRunning(page);
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 500);

    // The first batch makes the session; the owner opens its live replay.
    await flushRecorder(page);
    await until(() => answers.length === 1);
    expect(answers[0].headers()['x-tapedeck-live']).toBeUndefined();
    const id = await page.evaluate(() => JSON.parse(sessionStorage.getItem('tapedeck') ?? '{}').id as string);
    const stream = await openSse(`${rig.server.url}/api/v1/replay/live/${campaignId}/${id}`, owner.headers);
    expect(stream.status).toBe(200);
    await page.click('#buy');
    await flushRecorder(page);
    await until(() => answers.length === 2);
    expect(answers[1].headers()['x-tapedeck-live']).toBe('1');

    // Watched: each second sends its click (without the header, at most one in 5 would).
    expect(await secondsOfClicks(page, 4)).toBe(4);
    await until(() => answers.length === 6);
    expect(answers.slice(2).map((a) => a.headers()['x-tapedeck-live'])).toEqual(['1', '1', '1', '1']);

    // Unwatched (every node forgets a viewer 10 s after its last sign): 10 s after the last reply
    // with the header, back to one batch every 5 s.
    stream.close();
    await until(() => !rig.server.app.ctx.live.isWatched(campaignId, id), 400);
    await page.clock.runFor(11_000);
    expect(await secondsOfClicks(page, 4)).toBeLessThanOrEqual(1);
    await until(() => answers.every((a) => a.status() === 200) && answers.length >= 6);
  });
});
