// Gzip sizes of what a visitor downloads: `node tracker/sizes.mjs [dist/tracker]`.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { minify } from 'terser';

const gz = (text) => zlib.gzipSync(text, { level: 9 }).length;

export async function trackerSizes(dir) {
  const loader = fs.readFileSync(path.join(dir, 'magicFormat.js'), 'utf8');
  const recorder = fs.readFileSync(path.join(dir, 'recorder.js'), 'utf8');
  // The downloaded magicFormat-{id}.js: filled in (as common/loader-script.ts does), then minified.
  const filled = loader
    .replace(/var campaignId = [^;]*;/, 'var campaignId = "5b0c1f8e-8d3a-4c57-9a4e-2f0c9d7b6a11";')
    .replace(/var baseUrl = [^;]*;/, 'var baseUrl = "https://tapedeck.example.com";');
  const minified = (await minify(filled, { compress: true, mangle: true })).code ?? filled;
  return { loader: gz(loader), loaderMinified: gz(minified), recorder: gz(recorder), total: gz(loader) + gz(recorder) };
}

if (process.argv[1] === import.meta.filename) {
  const dir = path.resolve(process.argv[2] ?? 'dist/tracker');
  const sizes = await trackerSizes(dir);
  for (const [name, bytes] of Object.entries(sizes)) console.log(`${name.padEnd(15)} ${String(bytes).padStart(6)} B gzip  (${(bytes / 1024).toFixed(2)} KB)`);
}
