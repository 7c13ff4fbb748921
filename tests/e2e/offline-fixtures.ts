import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import type { ReplayEvent } from '../../common/api-types.js';
import { documentNode, el, recordedPage } from './replay-fixtures.js';

// Fixtures of the offline journey: the committed demo recording, and a recorded "customer site"
// on another origin whose stylesheet, image and background must survive going offline.

export { desktopRecording as demoEvents } from './replay-fixtures.js';

export interface CustomerSite {
  origin: string;
  close(): Promise<void>;
}

/**
 * The recorded site: a stylesheet (with a background image) and a logo. With `cors: false` it is
 * a site like many, whose files the device can keep only as opaque copies.
 */
export async function startCustomerSite({ cors = true } = {}): Promise<CustomerSite> {
  const logo = fs.readFileSync(path.resolve('public/icons/icon-192.png'));
  const background = fs.readFileSync(path.resolve('public/icons/maskable-512.png'));
  const css =
    'body{margin:0;background:#fde68a;font:24px sans-serif;color:#7c2d12}.hero{width:300px;height:120px;background:url(/bg.png) center/cover}h1{color:#be123c}';
  const server = http.createServer((request, response) => {
    // CORS like a CDN: the page can read the kept copies (an opaque copy cannot be replayed offline).
    const send = (type: string, body: string | Buffer) =>
      response.writeHead(200, { 'content-type': type, 'cache-control': 'no-store', ...(cors ? { 'access-control-allow-origin': '*' } : {}) }).end(body);
    if (request.url === '/site.css') return send('text/css', css);
    if (request.url === '/logo.png') return send('image/png', logo);
    if (request.url === '/bg.png') return send('image/png', background);
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** An rrweb recording of a page on the customer site that references its assets by URL. */
export function styledRecording(site: string, start: number): ReplayEvent[] {
  const node = documentNode(
    el(4, 'head', {}, [el(5, 'link', { rel: 'stylesheet', href: `${site}/site.css` })]),
    el(6, 'body', {}, [
      el(7, 'h1', {}, [{ type: 3, id: 8, textContent: 'Offline shop' }]),
      el(9, 'img', { src: `${site}/logo.png`, width: '192', height: '192', alt: 'logo' }),
      el(10, 'div', { class: 'hero' }),
    ]),
  );
  return recordedPage(site, node, start, { width: 800, height: 600, moves: 30, movesOver: 6 });
}

/** Share of pixels that differ between two PNG screenshots, compared in the browser's canvas. */
export async function pixelDifference(page: Page, a: Buffer, b: Buffer): Promise<number> {
  return page.evaluate(
    async ([first, second]) => {
      const load = async (base64: string) => {
        const image = new Image();
        image.src = `data:image/png;base64,${base64}`;
        await image.decode();
        const canvas = document.createElement('canvas');
        canvas.width = image.width;
        canvas.height = image.height;
        const context = canvas.getContext('2d')!;
        context.drawImage(image, 0, 0);
        return context.getImageData(0, 0, image.width, image.height);
      };
      const [x, y] = await Promise.all([load(first), load(second)]);
      if (x.width !== y.width || x.height !== y.height) return 1;
      // A pixel matches when the same colour is within one pixel of it (layout above the
      // player may shift it by a sub-pixel between the two pages).
      const close = (i: number, j: number) =>
        Math.abs(x.data[i] - y.data[j]) + Math.abs(x.data[i + 1] - y.data[j + 1]) + Math.abs(x.data[i + 2] - y.data[j + 2]) <= 30;
      let differing = 0;
      for (let row = 0; row < x.height; row += 1) {
        for (let col = 0; col < x.width; col += 1) {
          const i = (row * x.width + col) * 4;
          let matched = false;
          for (let dy = -1; dy <= 1 && !matched; dy += 1) {
            for (let dx = -1; dx <= 1 && !matched; dx += 1) {
              const r = row + dy;
              const c = col + dx;
              if (r >= 0 && c >= 0 && r < y.height && c < y.width) matched = close(i, (r * y.width + c) * 4);
            }
          }
          if (!matched) differing += 1;
        }
      }
      return differing / (x.width * x.height);
    },
    [a.toString('base64'), b.toString('base64')] as const,
  );
}
