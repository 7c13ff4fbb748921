// Builds what visitors' browsers download: the loader (magicFormat.js, readable — the dashboard
// fills it in and minifies it) and the recorder bundle (recorder.js, esbuild, minified).
import fs from 'node:fs';
import path from 'node:path';
import * as esbuild from 'esbuild';

const here = import.meta.dirname;

/**
 * Canvas recording is off, so rrweb's inline canvas worker (about 1 KB gzip) can never run:
 * its source is left out of the bundle.
 */
const dropCanvasWorker = {
  name: 'drop-canvas-worker',
  setup(build) {
    build.onLoad({ filter: /@rrweb[\\/]record[\\/]dist[\\/]record\.js$/ }, async (args) => {
      const source = await fs.promises.readFile(args.path, 'utf8');
      return { contents: source.replace(/const jsContent = '(?:[^'\\]|\\.)*';/, "const jsContent = '';"), loader: 'js' };
    });
  },
};

export async function buildTracker(outDir) {
  fs.mkdirSync(outDir, { recursive: true });
  await esbuild.build({
    entryPoints: [path.join(here, 'src', 'recorder.ts')],
    outfile: path.join(outDir, 'recorder.js'),
    bundle: true,
    minify: true,
    format: 'iife',
    target: 'es2020',
    banner: { js: '/*! Tapedeck recorder; includes rrweb (MIT, github.com/rrweb-io/rrweb) */' },
    legalComments: 'none',
    plugins: [dropCanvasWorker],
    logLevel: 'warning',
  });
  fs.copyFileSync(path.join(here, 'loader.js'), path.join(outDir, 'magicFormat.js'));
}
