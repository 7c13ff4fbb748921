import fs from 'node:fs';
import inspector from 'node:inspector/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { info, pageEvents, postBatch, serverWithCampaign, sessionId } from './ingest-support.js';
import { usingPostgres } from '../helpers/server.js';

// The write spine, measured: the files of server/ingest/ and server/recordings/ whose code runs
// while one batch goes from the ingest route to its row (V8's function counts over that one
// request), checked against what docs/architecture.md says for this database.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const WRITE_PATH_FOLDERS = /^server\/(ingest|recordings)\//;

let { server, campaignId } = {} as Awaited<ReturnType<typeof serverWithCampaign>>;
const profiler = new inspector.Session();
beforeAll(async () => {
  ({ server, campaignId } = await serverWithCampaign('Spine Owner'));
  profiler.connect();
  await profiler.post('Profiler.enable');
  await profiler.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
});
afterAll(async () => {
  await profiler.post('Profiler.stopPreciseCoverage');
  profiler.disconnect();
  await server?.close();
});

/** The write path's files whose functions ran since the last call (taking the counts resets them). */
async function filesRun(): Promise<string[]> {
  const { result } = await profiler.post('Profiler.takePreciseCoverage');
  return result
    .filter((script) => script.functions.some((fn) => fn.ranges[0].count > 0))
    .map((script) => (script.url.startsWith('file:') ? fileURLToPath(script.url) : script.url))
    .map((file) => path.relative(root, file).split(path.sep).join('/'))
    .filter((file) => WRITE_PATH_FOLDERS.test(file))
    .sort();
}

/** Names as the doc writes them, `ingest/routes`: the folder under server/ and the file's name. */
const namedFiles = (list: string) => list.split(', ').map((name) => `server/${name.replace(/`/g, '')}.ts`);

/** The files one batch passes, as docs/architecture.md lists them for this database, and those it names beside and past the row. */
function documentedSpine(): { spine: string[]; beside: string[] } {
  const doc = fs.readFileSync(path.join(root, 'docs/architecture.md'), 'utf8');
  const database = usingPostgres() ? 'PostgreSQL' : 'SQLite';
  const passes = new RegExp(`One batch passes (\\d+) files on ${database}: ([^.]+)\\.`).exec(doc);
  const consults = /consult (\d+) helpers on both databases: ([^.]+)\./.exec(doc);
  const past = /Past the row, the batch's projections run (\d+) files on both databases: ([^.]+)\./.exec(doc);
  expect(passes, `docs/architecture.md: "One batch passes N files on ${database}: …."`).not.toBeNull();
  expect(consults, 'docs/architecture.md: "… consult N helpers on both databases: …."').not.toBeNull();
  expect(past, 'docs/architecture.md: "Past the row, the batch\'s projections run N files on both databases: …."').not.toBeNull();
  for (const match of [passes!, consults!, past!]) expect(namedFiles(match[2])).toHaveLength(Number(match[1]));
  return { spine: namedFiles(passes![2]), beside: [consults!, past!].flatMap((match) => namedFiles(match[2])) };
}

/** One batch of a session, posted and stored; the write path's files it ran. */
async function oneBatch(session: string, seq: number): Promise<string[]> {
  const batch = { sessionId: session, seq, events: pageEvents(), ...(seq === 0 ? { info: info() } : {}) };
  // A batch beforehand warms what runs once (the campaign's judgement, the first statements).
  await filesRun();
  const response = await postBatch(server, campaignId, batch);
  const files = await filesRun();
  expect(response.status).toBe(200);
  return files;
}

describe('one batch from the ingest route to its row', () => {
  it("passes the files docs/architecture.md names for this database, a session's first batch and a later one", async () => {
    const { spine, beside } = documentedSpine();
    expect(spine.length).toBeLessThanOrEqual(usingPostgres() ? 6 : 5);
    const ran = [...spine, ...beside].sort();
    await oneBatch(sessionId(), 0);
    const session = sessionId();
    expect(await oneBatch(session, 0)).toEqual(ran);
    expect(await oneBatch(session, 1)).toEqual(ran);
  });
});
