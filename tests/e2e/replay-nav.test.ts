import path from 'node:path';
import { beforeAll, describe, expect, it, onTestFailed, vi } from 'vitest';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { hasChromium, signedInContext } from '../helpers/browser.js';
import type { ReplayEvent } from '../../common/api-types.js';
import { step } from './step.js';
import { expectAccessible } from './a11y.js';
import { linkedRecording, playButton, recordSession } from './replay-fixtures.js';
import { useReplayRig } from './server-and-browser.js';

// The replay page's way through a list (issue 24, item 11) in real Chromium: Previous/Next session
// follow the order and filters of the list the replay was opened from (and, offline, the replays
// saved on the device), 'Autoplay next' is kept on the device and opens and plays the next one
// when a replay ends, skip-inactive runs a minute's idle gap in about a second, the scrubber has
// the player's width at 1280, and a phone shows the session's id whole.

vi.setConfig({ testTimeout: 120_000 });

/** The 8-character short form the spec gives ids. */
const short = (id: string) => id.slice(0, 8);

describe.skipIf(!hasChromium)('Previous / Next session, autoplay next, skip inactive', () => {
  const rig = useReplayRig('Nina Next');
  // Newest first (the default list; a session starts when its first batch came, less what it spans):
  // latest, short, medium, idle. Longest first: idle, medium, short, latest.
  const ids = { medium: '', idle: '', short: '', latest: '' };
  const IDLE_TO = 62_200; // its next click, a minute later

  const record = (events: ReplayEvent[]) => recordSession(rig.server, rig.campaignId, events);

  /** A page of the recorded site with `moves` mouse moves 100 ms apart, started `ago` ms before now. */
  const page = (ago: number, moves: number) => linkedRecording(rig.site.origin, `${rig.site.origin}/elsewhere`, Date.now() - ago).slice(0, 2 + moves);

  beforeAll(async () => {
    ids.medium = await record(page(300_000, 30));
    // Moves for 2 s, nothing for a minute, a click and moves again.
    const idleStart = Date.now() - 240_000;
    const before = page(240_000, 21);
    const click = { type: 3, data: { source: 2, type: 2, id: 12, x: 100, y: 300 }, timestamp: idleStart + IDLE_TO };
    const after = Array.from({ length: 10 }, (_, i) => ({
      type: 3,
      data: { source: 1, positions: [{ x: 50 + i * 10, y: 60, id: 7, timeOffset: 0 }] },
      timestamp: idleStart + IDLE_TO + 100 + i * 100,
    }));
    ids.idle = await record([...before, click, ...after]);
    ids.short = await record(page(180_000, 10));
    ids.latest = await record(page(120_000, 5));
    // Recorded a while ago: finished sessions, not live ones (a live one has more to come, never an end to autoplay from).
    await rig.server.db
      .updateTable('sessions')
      .set({ last_activity_at: Date.now() - 10 * 60_000 })
      .where('campaign_id', '=', rig.campaignId)
      .execute();
  });

  const origin = () => rig.server.config.publicUrl;
  const slider = (p: Page) => p.getByRole('slider', { name: 'Playback position' });
  const previousButton = (p: Page) => p.getByRole('button', { name: 'Previous session' });
  const nextButton = (p: Page) => p.getByRole('button', { name: 'Next session' });
  const autoplaySwitch = (p: Page) => p.getByRole('switch', { name: 'Autoplay next' });
  const currentSession = (p: Page) => /\/session\/([0-9a-f]+)/.exec(new URL(p.url()).pathname)?.[1];

  async function playerReady(p: Page) {
    await p.getByRole('heading', { name: 'Session Replay' }).waitFor();
    await p.locator('.replayer-wrapper iframe').waitFor({ state: 'attached' });
    await expect.poll(() => playButton(p).isEnabled()).toBe(true);
  }

  /** Clicks Previous or Next once it is enabled, and waits for the player of session `id`. */
  async function follow(button: Locator, id: string) {
    await expect.poll(() => button.isEnabled()).toBe(true);
    await button.click();
    await expect.poll(() => currentSession(button.page())).toBe(id);
    await playerReady(button.page());
  }

  async function newPage(viewport: { width: number; height: number }, mobile = false): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
    const context = await signedInContext(rig.browser, origin(), rig.owner, { viewport, isMobile: mobile, hasTouch: mobile });
    const p = await context.newPage();
    const errors: string[] = [];
    p.on('pageerror', (error) => errors.push(error.message));
    onTestFailed(async () => {
      await p.screenshot({ path: path.resolve(`test-results/replay-nav-${viewport.width}-FAILED.png`) }).catch(() => undefined);
    });
    return { context, page: p, errors };
  }

  it('at 1280: Previous/Next follow the sorted list it came from, by mouse and keyboard; the scrubber spans the player; axe is clean', async () => {
    const { context, page: p, errors } = await newPage({ width: 1280, height: 800 });

    await step('1. From the list sorted longest first, the first replay has no previous session', async () => {
      await p.goto(`${origin()}/campaign/${rig.campaignId}?sort=longest`);
      await p.getByTestId('session-card').first().getByRole('link', { name: 'Watch Replay' }).click();
      await playerReady(p);
      expect(currentSession(p)).toBe(ids.idle);
      expect(new URL(p.url()).searchParams.get('sort')).toBe('longest');
      await expect.poll(() => nextButton(p).isEnabled()).toBe(true);
      expect(await previousButton(p).isDisabled()).toBe(true);
    });

    await step('2. Next by mouse, then by keyboard, walks the list in its order to its end', async () => {
      await nextButton(p).click();
      await expect.poll(() => currentSession(p)).toBe(ids.medium);
      await playerReady(p);
      await expect.poll(() => nextButton(p).isEnabled()).toBe(true);
      await nextButton(p).focus();
      await p.keyboard.press('Enter');
      await expect.poll(() => currentSession(p)).toBe(ids.short);
      await playerReady(p);
      await follow(nextButton(p), ids.latest);
      await expect.poll(() => previousButton(p).isEnabled()).toBe(true);
      expect(await nextButton(p).isDisabled()).toBe(true);
      // Shift+Tab from Back to Campaign reaches Previous (past the switch and the disabled Next).
      await p.getByRole('button', { name: 'Back to Campaign' }).focus();
      const stops: (string | null | undefined)[] = [];
      for (let i = 0; i < 3 && stops.at(-1) !== 'Previous session'; i++) {
        await p.keyboard.press('Shift+Tab');
        stops.push(await p.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.closest('label')?.textContent));
      }
      expect(stops).toEqual(['Autoplay next', 'Previous session']);
      await p.keyboard.press('Enter');
      await expect.poll(() => currentSession(p)).toBe(ids.short);
      expect(new URL(p.url()).searchParams.get('sort')).toBe('longest');
    });

    await step('3. Opened directly, a replay follows the default list (newest first); Back to Campaign returns to the list it came from', async () => {
      await p.goto(`${origin()}/campaign/${rig.campaignId}/session/${ids.idle}`);
      await playerReady(p);
      await expect.poll(() => previousButton(p).isEnabled()).toBe(true);
      expect(await nextButton(p).isDisabled()).toBe(true);
      await previousButton(p).click();
      await expect.poll(() => currentSession(p)).toBe(ids.medium);
      await p.goto(`${origin()}/campaign/${rig.campaignId}/session/${ids.short}?sort=longest`);
      await playerReady(p);
      await p.getByRole('button', { name: 'Back to Campaign' }).click();
      await p.getByRole('heading', { name: 'Campaign Sessions' }).waitFor();
      expect(new URL(p.url()).searchParams.get('sort')).toBe('longest');
    });

    await step('4. The scrubber has the player row to itself: at least 60% of the player', async () => {
      await p.goto(`${origin()}/campaign/${rig.campaignId}/session/${ids.idle}`);
      await playerReady(p);
      const player = (await p.locator('.player').boundingBox())!;
      const scrubber = (await slider(p).boundingBox())!;
      expect(scrubber.width, `scrubber ${scrubber.width} of a player ${player.width} wide`).toBeGreaterThanOrEqual(0.6 * player.width);
      // The ids in full on a wide screen.
      const text = (await p.locator('.replay-ids').innerText()).replace(/\s+/g, ' ');
      expect(text).toContain(`Session: ${ids.idle}`);
      expect(text).toContain(`Campaign: ${rig.campaignId}`);
    });

    await step('5. axe (target-size on) finds nothing serious with the new controls', async () => {
      await expectAccessible(p, 'replay page at 1280');
    });

    await step('6. Skip inactive (on by default) runs the minute without input at 60x, and says so', async () => {
      expect(await p.getByRole('switch', { name: 'Skip inactive' }).isChecked()).toBe(true);
      const position = async () => Number(await slider(p).inputValue());
      const status = p.locator('.player .player-skipping'); // role=status, out of the way while empty
      const said: string[] = [];
      await playButton(p).click();
      // rrweb's own skip runs this gap at 12x (every gap lasts 5 s on screen): ours at 60x (about 1 s).
      await expect
        .poll(
          async () => {
            said.push((await status.textContent()) ?? '');
            return position();
          },
          { interval: 50, timeout: 30_000 },
        )
        .toBeGreaterThanOrEqual(IDLE_TO);
      expect(said).toContain('Skipping inactivity 60x');
      await expect.poll(() => status.textContent()).toBe('');
    });

    expect(errors).toEqual([]);
    await context.close();
  });

  it('Autoplay next is kept on the device; when a replay plays to its end the next one opens and plays', async () => {
    const { context, page: p, errors } = await newPage({ width: 1280, height: 800 });
    await step('1. Off by default; switched on, it stays on after a reload', async () => {
      await p.goto(`${origin()}/campaign/${rig.campaignId}/session/${ids.latest}`);
      await playerReady(p);
      expect(await autoplaySwitch(p).isChecked()).toBe(false);
      await autoplaySwitch(p).check();
      await p.reload();
      await playerReady(p);
      expect(await autoplaySwitch(p).isChecked()).toBe(true);
    });

    await step('2. Seeking to the end while paused does not move on; playing to the end does, and the next one plays', async () => {
      await slider(p).focus();
      await p.keyboard.press('End');
      await expect.poll(() => slider(p).getAttribute('aria-valuetext')).toMatch(/^(\d\d:\d\d) of \1$/);
      await p.getByRole('button', { name: 'Play' }).waitFor();
      // rrweb says 'finish' 50 ms after drawing the last event: well past that, still here.
      await p.waitForTimeout(500);
      expect(currentSession(p)).toBe(ids.latest);
      await p.keyboard.press('Home');
      await expect.poll(() => nextButton(p).isEnabled()).toBe(true);
      await playButton(p).click();
      await expect.poll(() => currentSession(p), { timeout: 20_000 }).toBe(ids.short);
      await playerReady(p);
      await p.getByRole('button', { name: 'Pause' }).waitFor();
      await expect.poll(async () => Number(await slider(p).inputValue())).toBeGreaterThan(0);
    });

    expect(errors).toEqual([]);
    await context.close();
  });

  it('at 390: the ids are readable, the scrubber usable, Previous/Next are under the player and 44 px', async () => {
    const { context, page: p, errors } = await newPage({ width: 390, height: 844 }, true);
    await p.goto(`${origin()}/campaign/${rig.campaignId}/session/${ids.short}`);
    await playerReady(p);
    // The session's short form on one line with the campaign's name; both whole ids are in the
    // text (read out, copied) though not shown.
    const header = p.locator('.replay-ids');
    const shown = header.getByTitle(ids.short);
    expect(await shown.innerText()).toMatch(new RegExp(`^Session: ${short(ids.short)}`));
    // What is drawn of it is the short form: the rest is clipped to a pixel.
    expect((await shown.locator('.replay-id-tail').boundingBox())!.width).toBeLessThanOrEqual(1);
    expect((await shown.boundingBox())!.width).toBeLessThan(200);
    const text = await header.textContent();
    expect(text).toContain(`Session: ${ids.short}`);
    expect(text).toContain(`Campaign: ${rig.campaignId}`);
    const box = (await header.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    expect(box.height, 'one line').toBeLessThan(30);
    const scrubber = (await slider(p).boundingBox())!;
    expect(scrubber.width).toBeGreaterThanOrEqual(150);
    expect(scrubber.height).toBeGreaterThanOrEqual(44);
    const player = (await p.locator('.player').boundingBox())!;
    for (const control of [previousButton(p), nextButton(p)]) {
      const target = (await control.boundingBox())!;
      expect(target.y, 'under the player').toBeGreaterThanOrEqual(player.y + player.height);
      expect(Math.min(target.width, target.height)).toBeGreaterThanOrEqual(44);
    }
    await nextButton(p).click();
    await expect.poll(() => currentSession(p)).toBe(ids.medium);
    await playerReady(p);
    await expectAccessible(p, 'replay page at 390');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('offline: Previous/Next go to the nearest replays saved on the device', async () => {
    const { context, page: p, errors } = await newPage({ width: 1280, height: 800 });
    await step('1. Online: the list is seen and three replays opened (each kept on the device), the short one never', async () => {
      await p.goto(`${origin()}/campaign/${rig.campaignId}`);
      await p.getByRole('heading', { name: 'Campaign Sessions' }).waitFor();
      await p.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
      if (!(await p.evaluate(() => navigator.serviceWorker.controller !== null))) await p.reload();
      await p.waitForFunction(() => navigator.serviceWorker.controller !== null);
      await p.getByTestId('session-card').first().waitFor();
      for (const id of [ids.latest, ids.idle, ids.medium]) {
        await p.goto(`${origin()}/campaign/${rig.campaignId}/session/${id}`);
        await playerReady(p);
        await p.getByTestId('offline-state').getByText('Available offline').waitFor();
      }
    });

    await step('2. Offline, Previous and Next pass over the short one (not on the device) and the saved ones play', async () => {
      await context.setOffline(true);
      await p.goto(`${origin()}/campaign/${rig.campaignId}/session/${ids.medium}`);
      await playerReady(p);
      await follow(previousButton(p), ids.latest);
      await follow(nextButton(p), ids.medium);
      await follow(nextButton(p), ids.idle);
      expect(await nextButton(p).isDisabled()).toBe(true);
      await context.setOffline(false);
    });

    expect(errors).toEqual([]);
    await context.close();
  });
});
