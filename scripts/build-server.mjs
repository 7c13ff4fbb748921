// Compiles the server for `npm start`: node runs dist/server/main.js, with no TypeScript loader.
// main and the `npm run user` command are ES modules that import their packages from
// node_modules; each worker thread's entry (server/**/*-worker.ts) becomes a CommonJS file beside
// them, where the server's worker locator (server/worker-script.ts) looks for it.
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
// Packages a worker requires rather than bundles: native addons and the PostgreSQL driver (see
// the callers of workerScript). Everything else a worker uses is bundled into its one file, as the
// tsx-run server does, since piscina require()s it.
const WORKER_EXTERNAL = ['better-sqlite3', 'pg'];
// What the server reads from beside its own code (import.meta.url), copied to the same place.
const ASSETS = [{ from: 'server/replay/demo', to: 'demo' }];

function workerEntries(dir) {
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('-worker.ts'))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** The packages each built file loads at run time (from esbuild's metafile), by file. */
function packagesLoaded(metafile) {
  const byFile = {};
  for (const [file, output] of Object.entries(metafile.outputs)) {
    const names = output.imports
      .filter((i) => i.external && !i.path.startsWith('node:'))
      .map((i) =>
        i.path
          .split('/')
          .slice(0, i.path.startsWith('@') ? 2 : 1)
          .join('/'),
      );
    if (names.length) byFile[path.basename(file)] = [...new Set(names)].sort();
  }
  return byFile;
}

/** Builds the server into outDir; returns the packages each built file loads at run time. */
export async function buildServer(outDir) {
  fs.rmSync(outDir, { recursive: true, force: true });
  const common = { bundle: true, platform: 'node', target: 'node20', logLevel: 'warning', define: { TAPEDECK_COMPILED: 'true' } };
  const server = await build({
    ...common,
    entryPoints: { main: path.join(root, 'server/main.ts'), user: path.join(root, 'server/cli/user.ts') },
    format: 'esm',
    packages: 'external',
    outdir: outDir,
    metafile: true,
  });
  const workers = workerEntries(path.join(root, 'server'));
  const names = workers.map((file) => path.basename(file, '.ts'));
  if (new Set(names).size !== names.length) throw new Error(`two workers share a name: ${names.join(', ')}`);
  const threads = await build({
    ...common,
    entryPoints: Object.fromEntries(workers.map((file, i) => [names[i], file])),
    format: 'cjs',
    outExtension: { '.js': '.cjs' },
    external: WORKER_EXTERNAL,
    outdir: outDir,
    metafile: true,
    // The modules a worker shares with the server may read import.meta, empty in CommonJS: none
    // a worker calls does (the tsx-run server bundles its workers the same way).
    logOverride: { 'empty-import-meta': 'silent' },
  });
  for (const asset of ASSETS) fs.cpSync(path.join(root, asset.from), path.join(outDir, asset.to), { recursive: true });
  return { ...packagesLoaded(server.metafile), ...packagesLoaded(threads.metafile) };
}
