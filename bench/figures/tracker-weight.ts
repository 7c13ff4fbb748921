// Figure 1: what a visitor's browser downloads for recording, gzip, vs @rrweb/record alone.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { exact, type Row } from '../lib.js';

export const title = 'Tracker weight';

const root = path.resolve(import.meta.dirname, '..', '..');
const gzipBytes = (file: string) => zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;

export async function run(): Promise<Row[]> {
  const dir = path.join(root, 'dist', 'tracker');
  const loader = path.join(dir, 'magicFormat.js');
  if (!fs.existsSync(loader)) throw new Error(`${loader} is missing: the tracker is not built`);
  // Everything the loader makes the browser fetch: every .js the tracker build emits.
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.js'));
  const total = files.reduce((sum, f) => sum + gzipBytes(path.join(dir, f)), 0);
  const baseline = {
    name: '@rrweb/record 2.1.6 alone (umd.min)',
    stats: exact(gzipBytes(path.join(root, 'node_modules/@rrweb/record/dist/record.umd.min.cjs')) / 1024),
  };
  return [
    { group: title, name: 'loader (magicFormat.js) gzip', unit: 'KB', ours: exact(gzipBytes(loader) / 1024), budget: 1.5 },
    { group: title, name: `total download gzip (${files.join(' + ')})`, unit: 'KB', ours: exact(total / 1024), baseline, budget: 26 },
  ];
}
