import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { launchChromium } from '../helpers/browser.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { userSession } from '../helpers/auth.js';
import { info, makeCampaign, postBatch, sessionId } from '../integration/ingest-support.js';
import { desktopRecording, playButton, recordedAgo } from './replay-fixtures.js';
import { startCustomerSite, type CustomerSite } from './offline-fixtures.js';

/** Before the describe block's tests: a server on its own copy of dist, and Chromium; after them, both closed. */
export function useServerAndBrowser(): { server: TestServer; browser: Browser } {
  const both = {} as { server: TestServer; browser: Browser };
  beforeAll(async () => {
    [both.server, both.browser] = await Promise.all([startServer({}, { privateDist: true }), launchChromium()]);
  });
  afterAll(async () => {
    await both.browser?.close();
    await both.server?.close();
  });
  return both;
}

/** An owner, their campaign, and one desktop visit a minute ago stored through ingest. */
async function ownerWithRecording(server: TestServer, ownerName: string) {
  const owner = await userSession(server, ownerName);
  const campaignId = await makeCampaign(server, { ownerId: owner.userId });
  const recorded = sessionId();
  const events = recordedAgo(desktopRecording, 60_000);
  const answer = await postBatch(server, campaignId, { sessionId: recorded, seq: 0, info: info({}), events });
  expect(await answer.json()).toEqual({ stored: true });
  return { owner, campaignId, recorded, events };
}

/** useServerAndBrowser, and before the tests ownerWithRecording: the rig's owner, campaign and recorded session. */
export function useOwnerWithRecording(ownerName: string) {
  const rig = useServerAndBrowser() as ReturnType<typeof useServerAndBrowser> & Awaited<ReturnType<typeof ownerWithRecording>>;
  beforeAll(async () => {
    Object.assign(rig, await ownerWithRecording(rig.server, ownerName));
  });
  return rig;
}

/** A server, Chromium, the recorded site (no CORS) and an owner with an empty campaign; after the tests, all closed. */
export function useReplayRig(ownerName: string) {
  const rig = {} as { server: TestServer; browser: Browser; site: CustomerSite; owner: Awaited<ReturnType<typeof userSession>>; campaignId: string };
  beforeAll(async () => {
    [rig.server, rig.browser, rig.site] = await Promise.all([startServer({}, { privateDist: true }), launchChromium(), startCustomerSite({ cors: false })]);
    rig.owner = await userSession(rig.server, ownerName);
    rig.campaignId = await makeCampaign(rig.server, { ownerId: rig.owner.userId });
  });
  afterAll(async () => {
    await rig.browser?.close();
    await rig.site?.close();
    await rig.server?.close();
  });
  return rig;
}

/** On Saved, opens a recording file of desktopRecording and plays it. */
export async function playRecordingFile(page: Page, file: string, sessionId: string) {
  await page.getByLabel('Open a recording file').setInputFiles(file);
  await page.getByRole('heading', { name: `Session ${sessionId}: ${desktopRecording.length} events recorded` }).waitFor();
  await page.locator('.replayer-wrapper iframe').waitFor({ state: 'attached' });
  await expect.poll(() => playButton(page).isEnabled()).toBe(true);
  await playButton(page).click();
  await expect.poll(() => page.getByRole('button', { name: 'Pause' }).count()).toBe(1);
}

/** A fresh folder for the describe block's files (downloads, recording files), removed after its tests. */
export function useTempFolder(prefix: string): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));
  return folder;
}
