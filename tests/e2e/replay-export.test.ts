import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Page } from 'playwright-core';
import { hasChromium, signedInContext } from '../helpers/browser.js';
import { playRecordingFile, useOwnerWithRecording, useTempFolder } from './server-and-browser.js';
import { userSession } from '../helpers/auth.js';
import { desktopRecording, recordedPage } from './replay-fixtures.js';
import type { Session } from '../../common/api-types.js';
import { KEPT_MESSAGE } from '../../src/offline/OpenRecordingFile.js';
import { PLAYER_FAILED } from '../../src/components/PlayerErrorBoundary.js';
import { notARecording, RECORDING_TOO_DEEP } from '../../src/offline/recordingFile.js';
import { step } from './step.js';
import { expectAccessible } from './a11y.js';

// Take a recording out of the app and back in: download it on the replay page, sign out, go
// offline, open the file on Saved and watch it there, then keep it in the saved replays. A forged
// file naming a real session is kept as an imported recording, never as that session's replay;
// malformed files are refused with a message and the app stays.

vi.setConfig({ testTimeout: 120_000 });

describe.skipIf(!hasChromium)('recording files', () => {
  const folder = useTempFolder('tapedeck-download-');

  const rig = useOwnerWithRecording('Dana Download');
  beforeAll(async () => {
    // A note travels with the file.
    const note = await fetch(`${rig.server.url}/api/v1/notes/${rig.campaignId}/${rig.recorded}`, {
      method: 'POST',
      headers: { ...rig.owner.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'Pays here', timestamp: rig.events[0].timestamp + 1000 }),
    });
    expect(note.status).toBe(201);
  });

  it('downloads a recording, and after signing out, offline, opens the file and plays it', async () => {
    const context = await signedInContext(rig.browser, rig.server.config.publicUrl, rig.owner, {
      viewport: { width: 1280, height: 800 },
      acceptDownloads: true,
    });
    const page = await context.newPage();
    const origin = rig.server.config.publicUrl;

    const file = await step('1. Download the recording', async () => {
      await page.goto(`${origin}/campaign/${rig.campaignId}/session/${rig.recorded}`);
      await page.getByRole('heading', { name: 'Session Replay' }).waitFor();
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download recording' }).click()]);
      expect(download.suggestedFilename()).toBe(`tapedeck-${rig.recorded}.json.gz`);
      const saved = path.join(folder, download.suggestedFilename());
      await download.saveAs(saved);
      const content = JSON.parse(gunzipSync(fs.readFileSync(saved)).toString('utf8')) as { format: string; events: unknown[] };
      expect(content.format).toBe('tapedeck-recording');
      expect(content.events).toHaveLength(desktopRecording.length);
      return saved;
    });

    await step('2. Sign out, with the app kept by its service worker', async () => {
      await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
      await page.getByRole('button', { name: 'Logout' }).click();
      await page.waitForURL(`${origin}/`);
      await page.goto(`${origin}/saved`);
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    });

    await step('3. Offline, open the file on Saved and watch it', async () => {
      await context.setOffline(true);
      await page.reload();
      await page.getByRole('heading', { name: 'Open a recording file' }).waitFor();
      await playRecordingFile(page, file, rig.recorded);
      // The file's note, in the notes list and on the timeline.
      expect(await page.getByRole('list', { name: 'Notes' }).textContent()).toContain('Dana Download: Pays here');
      await page
        .getByRole('group', { name: 'Activity timeline' })
        .getByRole('button', { name: /Note: Pays here at 00:01/ })
        .waitFor();
    });

    await step('4. Keep it in the saved replays', async () => {
      await page.getByRole('button', { name: 'Keep in saved replays' }).click();
      await page.getByText('Kept in your saved replays.').waitFor();
      await page.getByTestId('saved-replay').filter({ hasText: rig.recorded }).waitFor();
    });
    await context.close();
  });

  /** The owner signed in afresh (the first test signs out). */
  const signIn = () => userSession(rig.server, 'Dana Download');

  /** A recording file as anyone could write one: the real session's ids, another page, "finished" hours ago. */
  async function forgedFile(text: string): Promise<{ path: string; events: number }> {
    const answer = await fetch(`${rig.server.config.publicUrl}/api/v1/streaming/sessions/${rig.campaignId}/`, { headers: (await signIn()).headers });
    const session = ((await answer.json()) as { sessions: Session[] }).sessions.find((s) => s.sessionId === rig.recorded)!;
    const start = Date.now() - 3 * 60 * 60 * 1000;
    const node = {
      type: 0,
      id: 1,
      childNodes: [
        {
          type: 2,
          id: 2,
          tagName: 'html',
          attributes: {},
          childNodes: [{ type: 2, id: 3, tagName: 'body', attributes: {}, childNodes: [{ type: 3, id: 4, textContent: text }] }],
        },
      ],
    };
    const events = recordedPage('https://forged.example', node, start, { width: 800, height: 600, moves: 5, movesOver: 3 });
    const file = {
      format: 'tapedeck-recording',
      version: 1,
      campaignId: rig.campaignId,
      session: { ...session, startedAt: start, lastActivityAt: start + 1000 },
      events,
    };
    const saved = path.join(folder, 'forged.json');
    fs.writeFileSync(saved, JSON.stringify(file));
    return { path: saved, events: events.length };
  }

  const frameText = (page: Page) => page.locator('.replayer-wrapper iframe').first().contentFrame().locator('body').innerText();

  it("keeps a forged file naming a saved session as an imported recording: the replay's page still shows the server's recording, online and offline", async () => {
    const origin = rig.server.config.publicUrl;
    const context = await signedInContext(rig.browser, origin, await signIn(), { viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(60_000);
    const page = await context.newPage();
    const replayPage = `${origin}/campaign/${rig.campaignId}/session/${rig.recorded}`;
    const serverHeading = page.getByRole('heading', { name: `${desktopRecording.length} events recorded` });
    const saved = page.getByTestId('saved-replay');

    await step('1. Watch the replay online: the device keeps the server copy', async () => {
      await page.goto(`${origin}/saved`);
      await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
      if (!(await page.evaluate(() => navigator.serviceWorker.controller !== null))) await page.reload();
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
      await page.goto(replayPage);
      await serverHeading.waitFor();
      await page.goto(`${origin}/saved`);
      await saved.filter({ hasText: rig.recorded }).waitFor();
      expect(await saved.count()).toBe(1);
    });

    await step('2. Open a forged file with the same ids and keep it', async () => {
      const forged = await forgedFile('FORGED CONTENT');
      await page.getByLabel('Open a recording file').setInputFiles(forged.path);
      await page.getByRole('heading', { name: `Session ${rig.recorded}: ${forged.events} events recorded` }).waitFor();
      await page.getByRole('button', { name: 'Keep in saved replays' }).click();
      await page.getByText(KEPT_MESSAGE).waitFor();
    });

    await step("3. Online, the replay's page shows the server's recording", async () => {
      await page.goto(replayPage);
      await serverHeading.waitFor();
      await page.locator('.replayer-wrapper iframe').waitFor({ state: 'attached' });
      await expect.poll(() => frameText(page)).not.toBe('');
      expect(await frameText(page)).not.toContain('FORGED CONTENT');
    });

    await step("4. Offline, it shows the device's copy of the server's recording", async () => {
      await context.setOffline(true);
      await page.reload();
      await serverHeading.waitFor();
      await expect.poll(() => frameText(page)).not.toBe('');
      expect(await frameText(page)).not.toContain('FORGED CONTENT');
      await context.setOffline(false);
    });

    await step('5. Saved lists the file as imported, beside the server copy, and opens it there', async () => {
      await page.goto(`${origin}/saved`);
      await expect.poll(() => saved.count()).toBe(2);
      await expect.poll(() => saved.filter({ hasText: 'Imported file' }).count()).toBe(1);
      expect(await saved.filter({ hasNotText: 'Imported file' }).getByText(String(desktopRecording.length), { exact: true }).count()).toBe(1);
      await saved.filter({ hasText: 'Imported file' }).getByRole('button', { name: 'Open' }).click();
      await page.locator('.replayer-wrapper iframe').waitFor({ state: 'attached' });
      await expect.poll(() => frameText(page)).toContain('FORGED CONTENT');
      expect(page.url()).toBe(`${origin}/saved`);
      await expectAccessible(page, 'saved replays with an imported recording open');
    });
    await context.close();
  });

  it('refuses malformed files with a message naming the field, and the app stays', async () => {
    const origin = rig.server.config.publicUrl;
    const context = await rig.browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${origin}/saved`);
    await page.getByRole('heading', { name: 'Open a recording file' }).waitFor();
    const forged = JSON.parse(fs.readFileSync((await forgedFile('x')).path, 'utf8')) as { session: Record<string, unknown>; events: unknown[] };
    const open = async (name: string, text: string) => {
      const file = path.join(folder, name);
      fs.writeFileSync(file, text);
      await page.getByLabel('Open a recording file').setInputFiles(file);
    };

    await open('agent.json', JSON.stringify({ ...forged, session: { ...forged.session, userAgent: {} } }));
    await page.getByText(notARecording('session.userAgent must be text or null')).waitFor();
    await open('events.json', JSON.stringify({ ...forged, events: [1, null] }));
    await page.getByText(notARecording('events[0] must be an object')).waitFor();
    const tree = '{"type":2,"id":1,"tagName":"div","attributes":{},"childNodes":['.repeat(20_000) + ']}'.repeat(20_000);
    await open('deep.json', JSON.stringify({ ...forged, events: [forged.events[0], { type: 2, data: { node: '@' }, timestamp: 1 }] }).replace('"@"', tree));
    await page.getByText(RECORDING_TOO_DEEP).waitFor();

    expect(await page.getByRole('heading', { name: 'Saved replays', exact: true }).count()).toBe(1);
    expect(await page.getByText('Something went wrong!').count()).toBe(0);
    expect(errors).toEqual([]);

    // Well formed, but a page the player cannot draw (rrweb fails on its own timer): the failure
    // shows inside the box, with a way back, and the page stays.
    await open('undrawable.json', JSON.stringify({ ...forged, events: [forged.events[0], { type: 2, data: { node: null }, timestamp: 2 }] }));
    await page.getByText(PLAYER_FAILED).waitFor();
    await expectAccessible(page, 'a recording the player could not show');
    await page.getByRole('button', { name: 'Close this recording' }).click();
    await expect.poll(() => page.getByText(PLAYER_FAILED).count()).toBe(0);
    expect(await page.getByRole('heading', { name: 'Saved replays', exact: true }).count()).toBe(1);
    await context.close();
  });
});
