import path from 'node:path';
import { beforeAll, describe, expect, it, onTestFailed, vi } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import AxeBuilder from '@axe-core/playwright';
import { hasChromium, signedInContext } from '../helpers/browser.js';
import type { ReplayEvent } from '../../common/api-types.js';
import { step } from './step.js';
import { OFFLINE_REPLAY_MESSAGE, OFFLINE_WRITE_MESSAGE } from '../../src/offline/network.js';
import { MISSING_ASSETS_MESSAGE } from '../../src/offline/localAssets.js';
import { desktopRecording, IPHONE_USER_AGENT, linkedRecording, phoneRecording, playButton, recordedAgo, recordSession } from './replay-fixtures.js';
import { useReplayRig } from './server-and-browser.js';

// The replay page in real Chromium at 1280×800 and on a 390×844 phone: the recording and its
// controls fit the screen below the header, the recorded page is inert (no focus, no navigation),
// the controls work by keyboard and touch and are named, axe finds nothing critical or serious.
// With REPLAY_SCREENSHOTS=1 the page is saved to /tmp/replay-1280.png and (all of it) /tmp/replay-390.png.

vi.setConfig({ testTimeout: 120_000 });

const devices = [
  { name: '1280', viewport: { width: 1280, height: 800 }, isMobile: false, hasTouch: false },
  { name: '390', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
];

describe.skipIf(!hasChromium)('the replay page', () => {
  const rig = useReplayRig('Rita Replay');
  const sessions = { desktop: '', phone: '', linked: '', busy: '' };

  /** Stores a recording through the real ingest, as the tracker sends it. */
  const record = (events: ReplayEvent[], userAgent?: string) => recordSession(rig.server, rig.campaignId, events, userAgent ? { userAgent } : {});

  beforeAll(async () => {
    sessions.desktop = await record(recordedAgo(desktopRecording, 120_000));
    sessions.phone = await record(recordedAgo(phoneRecording, 90_000), IPHONE_USER_AGENT);
    sessions.linked = await record(linkedRecording(rig.site.origin, `${rig.server.config.publicUrl}/elsewhere`, Date.now() - 60_000));
    // The same page clicked 40 times, a second apart: an Activity list longer than its column.
    const busyStart = Date.now() - 90_000;
    const clicks = Array.from({ length: 40 }, (_, i) => ({
      type: 3,
      data: { source: 2, type: 2, id: 12, x: 100 + (i % 5) * 150, y: 300 },
      timestamp: busyStart + 5_000 + i * 1_000,
    }));
    sessions.busy = await record([...linkedRecording(rig.site.origin, `${rig.server.config.publicUrl}/elsewhere`, busyStart), ...clicks]);
  });

  async function ownerContext(options: Parameters<Browser['newContext']>[0]): Promise<BrowserContext> {
    return signedInContext(rig.browser, rig.server.config.publicUrl, rig.owner, options);
  }

  const replayUrl = (id: string) => `${rig.server.config.publicUrl}/campaign/${rig.campaignId}/session/${id}`;
  const slider = (page: Page) => page.getByRole('slider', { name: 'Playback position' });

  /** Opens a replay and waits until the player is loaded (its controls enabled). */
  async function openReplay(page: Page, id: string) {
    await page.goto(replayUrl(id));
    await page.getByRole('heading', { name: 'Session Replay' }).waitFor();
    await page.locator('.replayer-wrapper iframe').waitFor({ state: 'attached' });
    await expect.poll(() => playButton(page).isEnabled()).toBe(true);
  }

  /** Every control of the player, by role and name. */
  function playerControls(page: Page): Locator[] {
    const region = page.getByRole('region', { name: 'Session replay' });
    return [
      playButton(page),
      slider(page),
      ...['0.5x', '1x', '2x', '4x', '8x'].map((speed) => region.getByRole('button', { name: speed, exact: true })),
      page.getByRole('switch', { name: 'Skip inactive' }),
      page.getByRole('button', { name: 'Fullscreen' }),
    ];
  }

  /** The recording and the controls lie inside the screen, below the sticky header. */
  async function fitsTheScreen(page: Page, viewport: { width: number; height: number }) {
    const header = (await page.locator('header.navbar').boundingBox())!;
    const inside = (box: { x: number; y: number; width: number; height: number } | null, what: string) => {
      expect(box, what).not.toBeNull();
      expect(box!.y, `${what} starts below the header`).toBeGreaterThanOrEqual(header.y + header.height - 1);
      expect(box!.y + box!.height, `${what} ends inside the screen`).toBeLessThanOrEqual(viewport.height + 0.5);
      expect(box!.x, `${what} starts inside the screen`).toBeGreaterThanOrEqual(-0.5);
      expect(box!.x + box!.width, `${what} ends inside the screen`).toBeLessThanOrEqual(viewport.width + 0.5);
    };
    const recording = await page.locator('.player-host').boundingBox();
    inside(recording, 'the recording');
    inside(
      await page
        .locator('.replayer-wrapper iframe')
        .boundingBox()
        .then((box) => box && recording && { ...box, width: Math.min(box.width, recording.width), height: Math.min(box.height, recording.height) }),
      'the recorded page',
    );
    for (const control of playerControls(page)) inside(await control.boundingBox(), `control ${String(control)}`);
    // As large as fits: it fills the stage's width, or the controls reach the bottom of the screen.
    const stage = (await page.locator('.player-stage').boundingBox())!;
    const controls = (await page.locator('.player-controls').boundingBox())!;
    const fillsWidth = recording!.width >= stage.width - 2;
    const fillsHeight = controls.y + controls.height >= viewport.height - 40;
    expect(
      fillsWidth || fillsHeight,
      `recording ${recording!.width}×${recording!.height} in a stage ${stage.width} wide, controls end at ${controls.y + controls.height}`,
    ).toBe(true);
    return recording!;
  }

  for (const device of devices) {
    it(`at ${device.viewport.width}×${device.viewport.height}: fits the screen, the recording is inert, the controls work by keyboard and touch, axe finds nothing serious`, async () => {
      const context = await ownerContext({ viewport: device.viewport, isMobile: device.isMobile, hasTouch: device.hasTouch });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      onTestFailed(async () => {
        await page.screenshot({ path: path.resolve(`test-results/replay-page-${device.name}-FAILED.png`) }).catch(() => undefined);
      });

      await step('1. A desktop recording and a phone recording both fit, with their controls', async () => {
        for (const id of [sessions.desktop, sessions.phone]) {
          await openReplay(page, id);
          await page.getByText(`${id === sessions.desktop ? desktopRecording.length : phoneRecording.length} events recorded`).waitFor();
          const box = await fitsTheScreen(page, device.viewport);
          // Drawn readable (never the 112×243 px phone recording of before): the full width, or half the screen's height.
          const stage = (await page.locator('.player-stage').boundingBox())!;
          expect(box.width >= stage.width - 2 || box.height >= device.viewport.height / 2, `${box.width}×${box.height}`).toBe(true);
        }
        // The campaign's name, and the user agent summarised (full string on demand).
        await page.getByText('Ingest test', { exact: true }).first().waitFor();
        const strip = page.getByTestId('session-strip');
        for (const text of ['Safari 17', 'iOS', 'Phone', 'Human User']) await strip.getByText(text).first().waitFor();
        expect(await page.getByText(IPHONE_USER_AGENT).isVisible()).toBe(false);
        await page.getByText('All session details').click();
        await page.getByText(IPHONE_USER_AGENT).waitFor();
      });

      await step(
        '1b. The Activity list: a column beside the player on a wide screen (as tall, scrolling), below it on a phone; the current item stays in view',
        async () => {
          await openReplay(page, sessions.busy);
          const player = (await page.locator('.player').boundingBox())!;
          const panel = (await page.getByRole('region', { name: 'Session activity' }).boundingBox())!;
          if (device.viewport.width >= 1024) {
            expect(panel.x, 'the panel starts right of the player').toBeGreaterThanOrEqual(player.x + player.width);
            expect(panel.y).toBeCloseTo(player.y, 0);
            expect(panel.y + panel.height).toBeCloseTo(player.y + player.height, 0);
          } else {
            expect(panel.y, 'the panel starts below the player').toBeGreaterThanOrEqual(player.y + player.height);
          }
          // The last marker (moments closer than a marker's width share one): its first moment's
          // second becomes the current item's, scrolled into view inside the list.
          const list = page.locator('.activity-panel .activity-list');
          expect(await list.evaluate((ol) => ol.scrollHeight > ol.clientHeight + 40), 'the list is longer than its column').toBe(true);
          const pageScroll = await page.evaluate(() => window.scrollY);
          const lastMarker = page.getByRole('group', { name: 'Activity timeline' }).getByRole('button').last();
          const [, firstTime] = / at (\d\d:\d\d)/.exec((await lastMarker.getAttribute('aria-label')) ?? '')!;
          await lastMarker.click();
          const current = list.locator('li[aria-current="true"]');
          await expect.poll(() => current.count()).toBe(1);
          expect(await current.locator('.activity-time').textContent()).toBe(firstTime);
          expect(await list.locator('li').count(), 'the current item is far down the list').toBeGreaterThan(10);
          await expect
            .poll(() =>
              current.evaluate((li) => {
                const [outer, inner] = [li.parentElement!.getBoundingClientRect(), li.getBoundingClientRect()];
                return inner.top >= outer.top - 1 && inner.bottom <= outer.bottom + 1;
              }),
            )
            .toBe(true);
          if (device.viewport.width >= 1024) expect(await page.evaluate(() => window.scrollY), 'the page itself does not scroll').toBe(pageScroll);
        },
      );

      await step('2. Touch targets are at least 44 px on the phone', async () => {
        if (!device.isMobile) return;
        const targets = [...playerControls(page).filter((_, i) => i !== 1 && i !== 7), page.locator('.player-switch'), page.locator('.session-more summary')];
        for (const target of targets) {
          const box = (await target.boundingBox())!;
          expect(box.height, `${String(target)} height`).toBeGreaterThanOrEqual(44);
          expect(box.width, `${String(target)} width`).toBeGreaterThanOrEqual(44);
        }
        expect((await slider(page).boundingBox())!.height).toBeGreaterThanOrEqual(44);
        // The controls span the screen's width; the scrubber takes what the buttons leave of its row.
        expect((await page.locator('.player-controls').boundingBox())!.width).toBeGreaterThanOrEqual(device.viewport.width - 24);
        // Behind a live session's edge, 'Jump to live' (a 44 px dot on a phone) shares the row.
        const behindLive = (await page.getByRole('button', { name: 'Jump to live' }).count()) > 0;
        expect((await slider(page).boundingBox())!.width).toBeGreaterThanOrEqual(behindLive ? 125 : 150);
      });

      await openReplay(page, sessions.linked);
      const frame = page.frameLocator('.replayer-wrapper iframe');
      const frameUrl = () => page.locator('.replayer-wrapper iframe').evaluate((iframe: HTMLIFrameElement) => iframe.contentWindow?.location.href);
      await frame.locator('#recorded-link').waitFor({ state: 'attached' });
      const urlBefore = await frameUrl();

      await step('3. Tab goes from the last player control to the next control of the page, never into the recording', async () => {
        await playButton(page).focus();
        const stops: string[] = [];
        for (let i = 0; i < 40; i++) {
          await page.keyboard.press('Tab');
          const stop = await page.evaluate(() => {
            const active = document.activeElement;
            return active?.tagName === 'IFRAME' ? 'IFRAME' : `${active?.tagName}:${active?.getAttribute('aria-label') ?? active?.textContent?.trim()}`;
          });
          stops.push(stop);
          if (stop.startsWith('SUMMARY')) break;
        }
        expect(stops).not.toContain('IFRAME');
        const fullscreenAt = stops.indexOf('BUTTON:Fullscreen');
        expect(fullscreenAt, stops.join(' → ')).toBeGreaterThan(0);
        // Then the activity timeline, one stop for all its markers, and on to the page below.
        expect(stops[fullscreenAt + 1]).toMatch(/^BUTTON:[A-Z][a-z ]+ at \d\d:\d\d$/);
        expect(stops[fullscreenAt + 2]).not.toMatch(/ at \d\d:\d\d$/);
        expect(stops.at(-1)).toBe('SUMMARY:All session details');
        // And back: Shift+Tab from the first control leaves the player upwards, not into the frame.
        await playButton(page).focus();
        await page.keyboard.press('Shift+Tab');
        // The header's last control (Delete Session, after the replay actions) comes just before the player.
        expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Delete Session');
      });

      await step('4. A keyboard "click" (and a tap) on a recorded link does nothing', async () => {
        // Tab never reaches it (above); a script's focus() is sent back to the player.
        await frame.locator('#recorded-link').evaluate((link: HTMLElement) => link.focus());
        await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).not.toBe('IFRAME');
        await expect.poll(() => frame.locator('#recorded-link').evaluate((link) => link.ownerDocument.hasFocus())).toBe(false);
        await page.keyboard.press('Enter');
        const link = (await frame.locator('#recorded-link').boundingBox())!;
        await page.mouse.click(link.x + 10, link.y + link.height / 2);
        // Let the recording play to its end: time enough for any navigation to have happened.
        await playButton(page).click();
        await expect.poll(() => slider(page).getAttribute('aria-valuetext'), { timeout: 20_000 }).toMatch(/^(\d\d:\d\d) of \1$/);
        expect(await frameUrl()).toBe(urlBefore);
        // Playing ends at the last event and returns to paused.
        await page.getByRole('button', { name: 'Play' }).waitFor();
        await frame.locator('#recorded-link').waitFor({ state: 'attached' });
      });

      await step('5. The scrubber is a slider the keys move; play, speed and the switch respond', async () => {
        const position = async () => Number(await slider(page).inputValue());
        await slider(page).focus();
        await page.keyboard.press('Home');
        await expect.poll(position).toBe(0);
        // 5 s a press, however short the recording (this one ends before: → reaches its end).
        const end = Number(await slider(page).getAttribute('max'));
        await page.keyboard.press('ArrowRight');
        await expect.poll(position).toBe(Math.min(5000, end));
        await page.keyboard.press('ArrowLeft');
        await expect.poll(position).toBe(0);
        await page.keyboard.press('End');
        await expect.poll(() => slider(page).getAttribute('aria-valuetext')).toMatch(/^(\d\d:\d\d) of \1$/);
        await page.keyboard.press('Home');
        await page.getByTestId('player-time').getByText('00:00').waitFor();

        const region = page.getByRole('region', { name: 'Session replay' });
        const pressed = (name: string) => region.getByRole('button', { name, exact: true }).getAttribute('aria-pressed');
        expect(await pressed('1x')).toBe('true');
        await region.getByRole('button', { name: '2x', exact: true }).click();
        expect(await pressed('2x')).toBe('true');
        expect(await pressed('1x')).toBe('false');

        // The switch's label toggles it when tapped.
        const skip = page.getByRole('switch', { name: 'Skip inactive' });
        expect(await skip.isChecked()).toBe(true);
        const label = page.locator('.player-switch').getByText('Skip inactive');
        if (device.hasTouch) await label.tap();
        else await label.click();
        await expect.poll(() => skip.isChecked()).toBe(false);

        await playButton(page).click();
        await page.getByRole('button', { name: 'Pause' }).waitFor();
        await page.waitForFunction(() => document.querySelector('[data-testid="player-time"]')?.textContent !== '00:00');
        await page.getByRole('button', { name: 'Pause' }).click();
        await page.getByRole('button', { name: 'Play' }).waitFor();
      });

      await step('6. axe: no critical or serious violation with the player loaded', async () => {
        const results = await new AxeBuilder({ page }).analyze();
        const serious = results.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious');
        expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
      });

      await step('7. Fullscreen gives the recording the screen, with a full-width scrubber', async () => {
        await page.getByRole('button', { name: 'Fullscreen' }).click();
        await page.getByRole('button', { name: 'Exit fullscreen' }).waitFor();
        const recording = (await page.locator('.player-host').boundingBox())!;
        const scrubber = (await slider(page).boundingBox())!;
        // The recording (16:9) fills the width of the screen; the scrubber takes most of it.
        expect(recording.width).toBeGreaterThanOrEqual(device.viewport.width - 40);
        expect(scrubber.width).toBeGreaterThanOrEqual(device.viewport.width * (device.isMobile ? 0.6 : 0.4));
        for (const control of playerControls(page).slice(0, -1)) {
          const box = (await control.boundingBox())!;
          expect(box.y + box.height).toBeLessThanOrEqual(device.viewport.height + 0.5);
        }
        await page.getByRole('button', { name: 'Exit fullscreen' }).click();
        await page.getByRole('button', { name: 'Fullscreen' }).waitFor();
      });

      await step('8. A phone held sideways: scrolled to the player, recording and controls fill the screen below the header', async () => {
        if (!device.isMobile) return;
        await page.setViewportSize({ width: device.viewport.height, height: device.viewport.width });
        await openReplay(page, sessions.desktop);
        const header = (await page.locator('header.navbar').boundingBox())!;
        await page.evaluate((covered) => {
          const player = document.querySelector('.player')!;
          window.scrollTo(0, player.getBoundingClientRect().top + window.scrollY - covered);
        }, header.height);
        await expect.poll(async () => (await page.locator('.player').boundingBox())!.y).toBeCloseTo(header.height, 0);
        const landscape = { width: device.viewport.height, height: device.viewport.width };
        for (const control of playerControls(page)) {
          const box = (await control.boundingBox())!;
          expect(box.y + box.height, String(control)).toBeLessThanOrEqual(landscape.height + 0.5);
        }
        const recording = (await page.locator('.player-host').boundingBox())!;
        expect(recording.y).toBeGreaterThanOrEqual(header.height - 1);
        expect(recording.height).toBeGreaterThanOrEqual((landscape.height - header.height) / 2);
        await page.setViewportSize(device.viewport);
      });

      if (process.env.REPLAY_SCREENSHOTS === '1') {
        await openReplay(page, device.isMobile ? sessions.phone : sessions.desktop);
        // The whole page on a phone: Previous/Next session sit under the player, below the first screen.
        await page.screenshot({ path: `/tmp/replay-${device.name}.png`, fullPage: device.isMobile });
      }
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  it('offline: an unsaved replay says it is not on this device, a saved one says once that its images could not be kept, and the offline notices go when the network returns', async () => {
    const origin = rig.server.config.publicUrl;
    const context = await ownerContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    onTestFailed(async () => {
      await page.screenshot({ path: path.resolve('test-results/replay-page-offline-FAILED.png'), fullPage: true }).catch(() => undefined);
    });

    await step('1. Online: the campaign page shows its name; the linked replay is kept on the device', async () => {
      await page.goto(`${origin}/campaign/${rig.campaignId}`);
      await page.getByRole('heading', { name: 'Campaign Sessions' }).waitFor();
      await page.getByText('Ingest test', { exact: true }).waitFor();
      // The app works offline once its service worker controls the page.
      await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
      if (!(await page.evaluate(() => navigator.serviceWorker.controller !== null))) await page.reload();
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
      await openReplay(page, sessions.linked);
      await page.getByTestId('offline-state').getByText('Available offline').waitFor();
      // The site sends no CORS headers: only an opaque copy of its image can be kept.
      const logo = `${rig.site.origin}/logo.png`;
      await expect
        .poll(
          () =>
            page.evaluate(
              (url) =>
                caches
                  .open('tapedeck-replay-assets')
                  .then((cache) => cache.match(url))
                  .then((kept) => kept?.type ?? null),
              logo,
            ),
          { timeout: 20_000 },
        )
        .toBe('opaque');
      expect(await page.getByTestId('missing-assets').count()).toBe(0);
    });

    await step('2. /saved shows the campaign name with the saved replay', async () => {
      await page.goto(`${origin}/saved`);
      const saved = page.getByTestId('saved-replay').filter({ hasText: sessions.linked });
      await saved.getByText('Ingest test').waitFor();
    });

    await step('3. Offline, the saved replay plays and says once, under the player, that its images are missing', async () => {
      await context.setOffline(true);
      await openReplay(page, sessions.linked);
      await page.getByTestId('missing-assets').waitFor();
      expect(await page.getByText(MISSING_ASSETS_MESSAGE).count()).toBe(1);
      const note = (await page.getByTestId('missing-assets').boundingBox())!;
      const player = (await page.locator('.player-controls').boundingBox())!;
      expect(note.y).toBeGreaterThanOrEqual(player.y + player.height);
    });

    await step('4. Offline, a replay never opened here says it is not saved on this device, with no Save button', async () => {
      await page.goto(replayUrl(sessions.desktop));
      await page.getByText('Error Loading Session').waitFor();
      await page.getByText(OFFLINE_REPLAY_MESSAGE).waitFor();
      expect(await page.getByText(/HTTP error/).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Save for offline' }).count()).toBe(0);
      // Back online, it loads by itself.
      await context.setOffline(false);
      await page.getByText(`${desktopRecording.length} events recorded`).waitFor();
      await page.getByRole('button', { name: 'Save for offline' }).or(page.getByText('Available offline')).first().waitFor();
    });

    await step('5. "You\'re offline. Nothing was sent" goes away when the network returns', async () => {
      await page.goto(`${origin}/campaign/${rig.campaignId}`);
      await page.getByRole('heading', { name: 'Campaign Sessions' }).waitFor();
      await context.setOffline(true);
      await page.getByRole('button', { name: 'Delete Campaign' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Delete Campaign' }).click();
      await page.getByText(OFFLINE_WRITE_MESSAGE).waitFor();
      await context.setOffline(false);
      await page.getByText(OFFLINE_WRITE_MESSAGE).waitFor({ state: 'detached' });
      // Nothing was deleted.
      await page.getByText('Ingest test', { exact: true }).waitFor();
    });

    expect(errors).toEqual([]);
    await context.close();
  });
});
