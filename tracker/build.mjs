// Builds what visitors' browsers download: the loader (magicFormat.js, readable — the dashboard
// fills it in and minifies it) and the recorder bundle (recorder.js, esbuild, minified).
import fs from 'node:fs';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { minify } from 'terser';

const here = import.meta.dirname;

/** Edits to @rrweb/record 2.1.6 as bundled; each must apply, or the build fails (a new rrweb needs a look). */
const rrwebEdits = [
  {
    // Canvas recording is off, so rrweb's inline canvas worker (about 1 KB gzip) can never run.
    why: 'drop the canvas worker',
    from: /const jsContent = '(?:[^'\\]|\\.)*';/,
    to: "const jsContent = '';",
  },
  {
    // querySelector(All) are methods, but rrweb tests them as accessors, so the check always
    // fails and rrweb inserts a hidden iframe into every recorded page to fetch "untainted"
    // Element methods (rrweb-io/rrweb#1802). Testing them as methods keeps the iframe for pages
    // that really patched them.
    why: 'test querySelector(All) as methods',
    from: /Element: \["shadowRoot", "querySelector", "querySelectorAll"\],([\s\S]*?const testableMethods = \{[\s\S]*?)Element: \[\],/,
    to: 'Element: ["shadowRoot"],$1Element: ["querySelector", "querySelectorAll"],',
  },
  {
    // Deleting a property that is not the last one added turns every serialized element into a
    // slow dictionary-mode object in V8: the snapshot, and the JSON.stringify of it that follows
    // (measured 21 ms down to 10 ms for a 10,000-element page), pay for it. Setting it to
    // undefined gives the same JSON.
    why: 'stop deleting needBlock from serialized nodes',
    from: /delete serializedNode\.needBlock;/,
    to: 'serializedNode.needBlock = void 0;',
  },
  {
    // Canvas recording is off (recordCanvas is never set), so the canvas manager only ever has its
    // no-op methods called; a stub with those methods lets the build drop the canvas observers,
    // WebGL patching and argument serialisation (about 1 KB gzip) that nothing can reach.
    why: 'stub the canvas manager',
    from: /class CanvasManager \{[\s\S]*?\n\}\nclass StylesheetManager/,
    to: 'class CanvasManager {\n  reset() {}\n  freeze() {}\n  unfreeze() {}\n  lock() {}\n  unlock() {}\n}\nclass StylesheetManager',
  },
];

const editRrweb = {
  name: 'edit-rrweb',
  setup(build) {
    build.onLoad({ filter: /@rrweb[\\/]record[\\/]dist[\\/]record\.js$/ }, async (args) => {
      let source = await fs.promises.readFile(args.path, 'utf8');
      for (const edit of rrwebEdits) {
        const edited = source.replace(edit.from, edit.to);
        if (edited === source) throw new Error(`tracker build: cannot ${edit.why} in ${args.path}`);
        source = edited;
      }
      return { contents: source, loader: 'js' };
    });
  },
};

const common = { bundle: true, minify: true, format: 'iife', target: 'es2020', legalComments: 'none', logLevel: 'warning' };

/** The pack worker, bundled on its own: the recorder starts it from a blob: URL of this text. */
async function buildPackWorker() {
  const result = await esbuild.build({ ...common, entryPoints: [path.join(here, 'src', 'pack-worker.ts')], write: false });
  return result.outputFiles[0].text;
}

export async function buildTracker(outDir) {
  fs.mkdirSync(outDir, { recursive: true });
  const packWorker = await buildPackWorker();
  const result = await esbuild.build({
    ...common,
    entryPoints: [path.join(here, 'src', 'recorder.ts')],
    write: false,
    banner: { js: '/*! Tapedeck recorder; includes rrweb (MIT, github.com/rrweb-io/rrweb) */' },
    define: { PACK_WORKER_SOURCE: JSON.stringify(packWorker) },
    plugins: [editRrweb],
  });
  // esbuild bundles; terser's second compress pass then takes about 1 KB gzip more off rrweb (no unsafe options).
  const { code } = await minify(result.outputFiles[0].text, { compress: { passes: 2 }, mangle: true, format: { comments: /^!/ } });
  fs.writeFileSync(path.join(outDir, 'recorder.js'), code);
  fs.copyFileSync(path.join(here, 'loader.js'), path.join(outDir, 'magicFormat.js'));
}
