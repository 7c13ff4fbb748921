import fs from 'node:fs/promises';
import { gunzipSync, gzipSync } from 'node:zlib';
import { RecentlyUsed } from '../recently-used.js';

/** Recorded by scripts/record-demo.ts in Chromium from our demo shop page; never hand-written. */
const DEMO_DIR = new URL('./demo/', import.meta.url);

export interface DemoBody {
  json: Buffer;
  gzip: Buffer;
}

type DemoKind = 'desktop' | 'mobile';

async function load(kind: DemoKind): Promise<DemoBody> {
  const events = gunzipSync(await fs.readFile(new URL(`${kind}.json.gz`, DEMO_DIR)));
  const json = Buffer.concat([Buffer.from('{"data":'), events, Buffer.from('}')]);
  return { json, gzip: gzipSync(json) };
}

/** The demo answers {data: events}, plain and gzipped, each read once by the app that serves them. */
export function demoBodies(): (kind: DemoKind) => Promise<DemoBody> {
  const read = new RecentlyUsed<DemoKind, Promise<DemoBody>>(2);
  return (kind) => {
    let body = read.get(kind);
    if (!body) {
      body = load(kind);
      body.catch(() => read.delete(kind));
      read.set(kind, body);
    }
    return body;
  };
}
