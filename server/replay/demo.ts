import fs from 'node:fs/promises';
import { gunzipSync, gzipSync } from 'node:zlib';

/** Recorded by scripts/record-demo.ts in Chromium from our demo shop page; never hand-written. */
const DEMO_DIR = new URL('./demo/', import.meta.url);

export interface DemoBody {
  json: Buffer;
  gzip: Buffer;
}

const cache = new Map<'desktop' | 'mobile', Promise<DemoBody>>();

async function load(kind: 'desktop' | 'mobile'): Promise<DemoBody> {
  const events = gunzipSync(await fs.readFile(new URL(`${kind}.json.gz`, DEMO_DIR)));
  const json = Buffer.concat([Buffer.from('{"data":'), events, Buffer.from('}')]);
  return { json, gzip: gzipSync(json) };
}

/** The demo answer {data: events}, plain and gzipped, read once per process. */
export function demoBody(kind: 'desktop' | 'mobile'): Promise<DemoBody> {
  let body = cache.get(kind);
  if (!body) {
    body = load(kind);
    body.catch(() => cache.delete(kind));
    cache.set(kind, body);
  }
  return body;
}
