// Builds what `npm start` and the tests serve: the tracker (esbuild), the PWA (Vite) and the
// server itself (scripts/build-server.mjs). With --if-needed it skips each part whose inputs did
// not change since its last build.
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import zlib from 'node:zlib';
import { execFileSync } from 'node:child_process';

const root = path.resolve(import.meta.dirname, '..');
// common/ too: the tracker and the PWA bundle its rules and constants.
const inputs = ['common', 'src', 'sw', 'public', 'tracker', 'index.html', 'vite.config.ts', 'package-lock.json'];
const stampFile = path.join(root, 'dist', '.build-stamp');
const serverInputs = ['server', 'common', 'package-lock.json', 'scripts/build-server.mjs'];
const serverDir = path.join(root, 'dist', 'server');
const serverStampFile = path.join(root, 'dist', '.server-build-stamp');

function fingerprint(paths) {
  const hash = crypto.createHash('sha256');
  const walk = (p) => {
    if (!fs.existsSync(p)) return;
    const stat = fs.statSync(p);
    if (stat.isDirectory()) {
      for (const name of fs.readdirSync(p).sort()) walk(path.join(p, name));
    } else {
      hash.update(`${path.relative(root, p)}:${stat.size}:${stat.mtimeMs}\n`);
    }
  };
  for (const input of paths) walk(path.join(root, input));
  return hash.digest('hex');
}

const ifNeeded = process.argv.includes('--if-needed');
const stale = (file, print) => !ifNeeded || !fs.existsSync(file) || fs.readFileSync(file, 'utf8') !== print;

const serverPrint = fingerprint(serverInputs);
if (stale(serverStampFile, serverPrint)) {
  console.log('Building the server...');
  const { buildServer } = await import('./build-server.mjs');
  await buildServer(serverDir);
  fs.writeFileSync(serverStampFile, serverPrint);
}

const current = fingerprint(inputs);
if (!stale(stampFile, current)) process.exit(0);
console.log('Building Tapedeck (tracker, then PWA)...');
const trackerBuild = path.join(root, 'tracker', 'build.mjs');
if (fs.existsSync(trackerBuild)) {
  const { buildTracker } = await import(trackerBuild);
  await buildTracker(path.join(root, 'dist', 'tracker'));
}
// A production build whoever asks: run from inside vitest (NODE_ENV=test) Vite would otherwise
// build React's development bundle and a PWA that never registers its service worker.
execFileSync(process.execPath, [path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, NODE_ENV: 'production' },
});
// Pre-compress the app's text files so the server sends them gzip without compressing per request.
const compressible = /\.(js|css|html|svg|json|webmanifest|txt)$/;
const gzipTree = (dir) => {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) gzipTree(file);
    else if (compressible.test(entry.name)) fs.writeFileSync(`${file}.gz`, zlib.gzipSync(fs.readFileSync(file), { level: 9 }));
  }
};
gzipTree(path.join(root, 'dist', 'app'));
fs.mkdirSync(path.dirname(stampFile), { recursive: true });
fs.writeFileSync(stampFile, current);
console.log('Build done.');
