import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import type { ReplayEvent } from '../../common/api-types.js';
import type { TestServer } from '../helpers/server.js';
import { info, postBatch, sessionId } from '../integration/ingest-support.js';

// Recordings for the replay page's tests: the committed demo recordings (a desktop and a phone
// visit) and a small page with a link, a button and an image from the recorded site.

const demo = (name: string) => JSON.parse(gunzipSync(fs.readFileSync(path.resolve(`server/replay/demo/${name}.json.gz`))).toString('utf8')) as ReplayEvent[];
export const desktopRecording = demo('desktop');
export const phoneRecording = demo('mobile');

/** The recording moved to have started `ago` ms before now (ingest takes recent events only). */
export function recordedAgo(events: ReplayEvent[], ago: number): ReplayEvent[] {
  const shift = Date.now() - ago - events[0].timestamp;
  return events.map((event) => ({ ...event, timestamp: event.timestamp + shift }));
}

/** rrweb's serialized element and text nodes, to build a recorded page's snapshot with. */
export const el = (id: number, tagName: string, attributes: Record<string, string>, childNodes: unknown[] = []) => ({
  type: 2,
  id,
  tagName,
  attributes,
  childNodes,
});
export const text = (id: number, textContent: string) => ({ type: 3, id, textContent });

/** A snapshot's document: the doctype (id 2) and <html> (id 3) around `head` and `body`. */
export const documentNode = (head: unknown, body: unknown) => ({
  type: 0,
  id: 1,
  childNodes: [{ type: 1, id: 2, name: 'html', publicId: '', systemId: '' }, el(3, 'html', {}, [head, body])],
});

/** The player's Play/Pause button, whichever it says now. */
export const playButton = (page: Page) => page.getByRole('button', { name: /^(Play|Pause)$/ });

export const IPHONE_USER_AGENT =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

/**
 * A recording of one page of `site`: its Meta and full snapshot (`node`) at `start`, then `moves`
 * mouse moves 100 ms apart over the node with id `movesOver`.
 */
export function recordedPage(
  site: string,
  node: unknown,
  start: number,
  { width, height, moves, movesOver }: { width: number; height: number; moves: number; movesOver: number },
): ReplayEvent[] {
  const mouse = Array.from({ length: moves }, (_, i) => ({
    type: 3,
    data: { source: 1, positions: [{ x: 20 + i * 10, y: 40 + i * 5, id: movesOver, timeOffset: 0 }] },
    timestamp: start + 200 + i * 100,
  }));
  return [
    { type: 4, data: { href: `${site}/`, width, height }, timestamp: start },
    { type: 2, data: { node, initialOffset: { left: 0, top: 0 } }, timestamp: start + 10 },
    ...mouse,
  ];
}

/**
 * A 1280×720 page with a link to `linkTarget` (which must never load in the player), a button
 * and the site's image, then a few seconds of mouse moves.
 */
export function linkedRecording(site: string, linkTarget: string, start: number): ReplayEvent[] {
  const node = documentNode(
    el(4, 'head', {}, [
      el(5, 'style', {}, [{ type: 3, id: 6, textContent: 'body{margin:0;font:24px sans-serif}a{display:block;padding:20px}', isStyle: true }]),
    ]),
    el(7, 'body', {}, [
      el(8, 'h1', {}, [text(9, 'Recorded shop')]),
      el(10, 'a', { id: 'recorded-link', href: linkTarget }, [text(11, 'Go to the other page')]),
      el(12, 'button', {}, [text(13, 'Recorded button')]),
      el(14, 'img', { src: `${site}/logo.png`, width: '96', height: '96', alt: 'logo' }),
    ]),
  );
  return recordedPage(site, node, start, { width: 1280, height: 720, moves: 40, movesOver: 7 });
}

/** Stores a recording through the real ingest in one batch, as the tracker sends a short one; its session id. */
export async function recordSession(server: TestServer, campaignId: string, events: unknown[], infoOverrides: Record<string, unknown> = {}): Promise<string> {
  const id = sessionId();
  const answer = await postBatch(server, campaignId, { sessionId: id, seq: 0, info: info(infoOverrides), events });
  expect(await answer.json()).toEqual({ stored: true });
  return id;
}
