import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { launchChromium } from '../helpers/browser.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { userSession } from '../helpers/auth.js';
import { info, makeCampaign, postBatch, sessionId } from '../integration/ingest-support.js';
import { desktopRecording, recordedAgo } from './replay-fixtures.js';

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
export async function ownerWithRecording(server: TestServer, ownerName: string) {
  const owner = await userSession(server, ownerName);
  const campaignId = await makeCampaign(server, { ownerId: owner.userId });
  const recorded = sessionId();
  const events = recordedAgo(desktopRecording, 60_000);
  const answer = await postBatch(server, campaignId, { sessionId: recorded, seq: 0, info: info({}), events });
  expect(await answer.json()).toEqual({ stored: true });
  return { owner, campaignId, recorded, events };
}

/** A fresh folder for the describe block's files (downloads, recording files), removed after its tests. */
export function useTempFolder(prefix: string): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));
  return folder;
}
