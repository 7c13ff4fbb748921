import { fileURLToPath } from 'node:url';

/** Defined (true) only in the compiled server: scripts/build-server.mjs sets it. */
declare const TAPEDECK_COMPILED: boolean | undefined;

/**
 * The file a worker thread runs, from its TypeScript entry beside the caller. The compiled server
 * (dist/server/) runs the worker built beside it by `npm run build`; under tsx (development and
 * tests) the entry is bundled at first use, so it never runs stale. The else keeps esbuild, a
 * build-only package, out of the compiled server: the build drops the branch.
 * `external`: packages the worker requires rather than bundles (native addons, optional parts).
 */
export async function workerScript(entry: URL, external: string[] = []): Promise<string> {
  if (typeof TAPEDECK_COMPILED !== 'undefined') return fileURLToPath(entry).replace(/\.ts$/, '.cjs');
  else {
    const { bundledWorker } = await import('./worker-bundle.js');
    return bundledWorker(entry, external);
  }
}
