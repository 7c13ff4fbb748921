import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { hasChromium } from '../helpers/browser.js';
import { playRecordingFile, useOwnerWithRecording, useTempFolder } from './server-and-browser.js';
import { step } from './step.js';

// Issue 24, point 5: a browser that only ever visited / and /saved opens a downloaded recording
// file offline. The player's code (the rrweb-player chunk and its styles) must have been kept by
// the service worker with the app, so the recording plays instead of an empty grey box.

vi.setConfig({ testTimeout: 120_000 });

describe.skipIf(!hasChromium)('the player offline, never loaded online', () => {
  let file = '';
  const folder = useTempFolder('tapedeck-offline-player-');

  const rig = useOwnerWithRecording('Olive Offline');
  beforeAll(async () => {
    // The recording file as "Download recording" saves it, fetched by the owner elsewhere.
    const answer = await fetch(`${rig.server.url}/api/v1/replay/export/${rig.campaignId}/${rig.recorded}`, { headers: rig.owner.headers });
    expect(answer.status).toBe(200);
    file = path.join(folder, `tapedeck-${rig.recorded}.json.gz`);
    fs.writeFileSync(file, Buffer.from(await answer.arrayBuffer()));
  });

  it('plays a recording file opened offline on /saved', async () => {
    const context = await rig.browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const origin = rig.server.config.publicUrl;
    await step('1. Visit / and /saved only, until the service worker controls the page', async () => {
      await page.goto(`${origin}/`);
      await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
      await page.goto(`${origin}/saved`);
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
      // What the browser's HTTP cache holds is gone by the next day (or the next start of a private
      // window): offline, only what the service worker kept is there.
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.clearBrowserCache');
      await cdp.detach();
    });
    await step('2. Offline, open the file: it plays', async () => {
      await context.setOffline(true);
      await page.reload();
      await playRecordingFile(page, file, rig.recorded);
    });
    await context.close();
  });
});
