import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { hasChromium, launchChromium, signedInContext } from '../helpers/browser.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { userSession } from '../helpers/auth.js';
import { info, makeCampaign, postBatch, sessionId } from '../integration/ingest-support.js';
import { desktopRecording, recordedAgo } from './replay-fixtures.js';
import { step } from './step.js';

// Take a recording out of the app and back in: download it on the replay page, sign out, go
// offline, open the file on Saved and watch it there, then keep it in the saved replays.

vi.setConfig({ testTimeout: 120_000 });

describe.skipIf(!hasChromium)('recording files', () => {
  let server: TestServer;
  let browser: Browser;
  let owner: Awaited<ReturnType<typeof userSession>>;
  let campaignId = '';
  let recorded = '';
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tapedeck-download-'));

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer({}, { privateDist: true }), launchChromium()]);
    owner = await userSession(server, 'Dana Download');
    campaignId = await makeCampaign(server, { ownerId: owner.userId });
    recorded = sessionId();
    const answer = await postBatch(server, campaignId, { sessionId: recorded, seq: 0, info: info({}), events: recordedAgo(desktopRecording, 60_000) });
    expect(await answer.json()).toEqual({ stored: true });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  const playButton = (page: Page) => page.getByRole('button', { name: /^(Play|Pause)$/ });

  it('downloads a recording, and after signing out, offline, opens the file and plays it', async () => {
    const context = await signedInContext(browser, server.config.publicUrl, owner, { viewport: { width: 1280, height: 800 }, acceptDownloads: true });
    const page = await context.newPage();
    const origin = server.config.publicUrl;

    const file = await step('1. Download the recording', async () => {
      await page.goto(`${origin}/campaign/${campaignId}/session/${recorded}`);
      await page.getByRole('heading', { name: 'Session Replay' }).waitFor();
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download recording' }).click()]);
      expect(download.suggestedFilename()).toBe(`tapedeck-${recorded}.json.gz`);
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
      await page.getByLabel('Open a recording file').setInputFiles(file);
      await page.getByRole('heading', { name: `Session ${recorded}: ${desktopRecording.length} events recorded` }).waitFor();
      await page.locator('.replayer-wrapper iframe').waitFor({ state: 'attached' });
      await expect.poll(() => playButton(page).isEnabled()).toBe(true);
      await playButton(page).click();
      await expect.poll(() => page.getByRole('button', { name: 'Pause' }).count()).toBe(1);
    });

    await step('4. Keep it in the saved replays', async () => {
      await page.getByRole('button', { name: 'Keep in saved replays' }).click();
      await page.getByText('Kept in your saved replays.').waitFor();
      await page.getByTestId('saved-replay').filter({ hasText: recorded }).waitFor();
    });
    await context.close();
  });
});
