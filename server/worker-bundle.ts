import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { build, type PluginBuild } from 'esbuild';

const scripts = new Map<string, Promise<string>>();

/**
 * A worker thread's code as one plain JavaScript file, bundled from its TypeScript entry once per
 * process (about 100 ms) into a temporary directory, for the server run through tsx: a worker that
 * loaded TypeScript through tsx took seconds to start. The compiled server runs the same bundle
 * built ahead (scripts/build-server.mjs).
 * CommonJS: piscina require()s the file first, and Node 20's require() of an ES module crashed the
 * whole process once (a fatal V8 error, "IsGraphAsync must be used on an instantiated module").
 * Packages named in `external` stay out of the bundle (native addons, optional parts): the bundle
 * requires them by their absolute path here, as it lies outside the project.
 */
export function bundledWorker(entry: URL, external: string[]): Promise<string> {
  const key = entry.href;
  let script = scripts.get(key);
  if (!script) {
    script = (async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tapedeck-worker-'));
      process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
      const outfile = path.join(dir, path.basename(fileURLToPath(entry)).replace(/\.ts$/, '.cjs'));
      const require = createRequire(import.meta.url);
      const outside = {
        name: 'outside',
        setup: (plugin: PluginBuild) => {
          // Bare package names only; the rest is bundled as usual.
          plugin.onResolve({ filter: /^[^./]/ }, (args) => (external.includes(args.path) ? { path: require.resolve(args.path), external: true } : undefined));
        },
      };
      await build({
        entryPoints: [fileURLToPath(entry)],
        bundle: true,
        platform: 'node',
        format: 'cjs',
        target: 'node20',
        outfile,
        plugins: external.length ? [outside] : [],
        logLevel: 'silent',
      });
      return outfile;
    })();
    scripts.set(key, script);
  }
  return script;
}
