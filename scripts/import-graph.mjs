// The repository's own imports as a graph: what keeps its shape checked rather than claimed. The
// lint rule `local/no-cycle` (eslint.config.js) fails on any file that imports itself through
// others; tests/unit/tooling/imports.test.ts shows it fires and counts the server's upward
// imports against SERVER_LAYERS. Only relative imports are followed (packages are not ours), and
// `import type` counts too: a cycle of types is still two files that cannot be read apart.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * The server's layers, highest first (docs/architecture.md draws them): a file imports its own
 * layer or lower ones. An entry is a folder (`server/db/`), a file, or a file name in any area
 * (`server/<area>/routes.ts`, written with `*`); the most specific entry that matches places a file (a file before its
 * folder, a deeper folder before a shallower one).
 */
export const SERVER_LAYERS = [
  { layer: 'entry', holds: ['server/main.ts', 'server/app.ts', 'server/web.ts', 'server/cli/'] },
  { layer: 'routes', holds: ['server/*/routes.ts', 'server/auth/local-routes.ts', 'server/ingest/scripts.ts'] },
  { layer: 'context', holds: ['server/context.ts'] },
  {
    layer: 'services',
    holds: [
      'server/ingest/',
      'server/account/',
      'server/api-keys/',
      'server/auth/',
      'server/campaigns/',
      'server/cluster/',
      'server/funnels/',
      'server/heatmaps/',
      'server/insights/',
      'server/live/',
      'server/notes/',
      'server/people/',
      'server/replay/',
      'server/segments/',
      'server/sessions/',
      'server/shares/',
      'server/site/',
      'server/stars/',
      'server/teams/',
    ],
  },
  // The writer, and the sessions row it writes as plain values (read by the services above).
  // (Heat records and search terms are taken from a batch as it is packed, and stored or fed with it.)
  {
    layer: 'recordings',
    holds: ['server/recordings/', 'server/sessions/rows.ts', 'server/sessions/duration.ts', 'server/sessions/search-terms.ts', 'server/heatmaps/records.ts'],
  },
  { layer: 'storage', holds: ['server/storage/'] },
  { layer: 'http', holds: ['server/http/'] },
  { layer: 'db', holds: ['server/db/', 'server/secrets.ts'] },
  // What every layer may use: the configuration, the data folder itself, small plain helpers.
  { layer: 'base', holds: ['server/config.ts', 'server/storage/data-dir.ts', 'server/recently-used.ts', 'server/in-turns.ts', 'server/worker-script.ts'] },
];

const SOURCE = /\.(ts|tsx|mts|js|mjs)$/;

/** Whether `entry` of a layer holds the file at `rel` (a path from the repository's root, with `/`). */
function holds(entry, rel) {
  if (entry.endsWith('/')) return rel.startsWith(entry);
  if (!entry.includes('*')) return rel === entry;
  const [head, tail] = entry.split('*');
  return rel.startsWith(head) && rel.endsWith(tail) && !rel.slice(head.length, rel.length - tail.length).includes('/');
}

/** How specific a matching entry is: a file (or file pattern) outranks any folder, a longer folder a shorter one. */
const specificity = (entry) => (entry.endsWith('/') ? entry.length : Infinity);

/** The index of the layer holding `rel` in `layers` (-1: none, outside the layering). */
export function layerIndex(rel, layers = SERVER_LAYERS) {
  let best = { index: -1, rank: -1 };
  layers.forEach(({ holds: entries }, index) => {
    for (const entry of entries) if (holds(entry, rel) && specificity(entry) > best.rank) best = { index, rank: specificity(entry) };
  });
  return best.index;
}

function isFile(file) {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false; // absent, or a path through a file (`styles.css/index.ts`)
  }
}

/** The file a relative specifier names (`./x.js` is `./x.ts` in the sources), or null for a package or a file not found. */
function resolved(from, specifier) {
  if (!specifier.startsWith('.')) return null;
  const base = path.resolve(path.dirname(from), specifier);
  const stem = base.replace(/\.(js|mjs)$/, '');
  const candidates = [`${stem}.ts`, `${stem}.tsx`, `${stem}.mts`, base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')];
  return candidates.find((file) => SOURCE.test(file) && isFile(file)) ?? null;
}

/** Every specifier a file's text imports: static imports, re-exports and `import()` with a literal. */
function specifiersIn(file, text) {
  const found = [];
  const visit = (node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      found.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false));
  return found;
}

/** Parsed files by path, kept while unchanged on disk (a lint run asks for each file many times). */
const parsed = new Map();

/** The files `file` imports, as absolute paths; `text` is the file's text when the caller has it. */
export function importsOf(file, text) {
  const mtime = text === undefined ? fs.statSync(file).mtimeMs : -1;
  const known = parsed.get(file);
  if (known && known.mtime === mtime && mtime !== -1) return known.imports;
  const specifiers = specifiersIn(file, text ?? fs.readFileSync(file, 'utf8'));
  const imports = [...new Set(specifiers.map((specifier) => resolved(file, specifier)).filter((target) => target !== null))];
  if (mtime !== -1) parsed.set(file, { mtime, imports });
  return imports;
}

/** A chain of imports from `file` back to itself (the files between, in order), or null when none leads back. */
export function cycleThrough(file, text) {
  const seen = new Set();
  const trail = [];
  const leadsBack = (current) => {
    for (const next of current === file ? importsOf(file, text) : importsOf(current)) {
      if (next === file) return true;
      if (seen.has(next)) continue;
      seen.add(next);
      trail.push(next);
      if (leadsBack(next)) return true;
      trail.pop();
    }
    return false;
  };
  return leadsBack(file) ? trail : null;
}

/** Every source file under `folder` (absolute), skipping declaration files. */
export function sourcesUnder(folder) {
  return fs
    .readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && SOURCE.test(entry.name) && !/\.d\.m?ts$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** The imports of the files under `root`/server/ that point to a higher layer, as `from -> to` (paths from `root`). */
export function upwardImports(root, layers = SERVER_LAYERS) {
  const rel = (file) => path.relative(root, file).split(path.sep).join('/');
  return sourcesUnder(path.join(root, 'server')).flatMap((file) => {
    const from = layerIndex(rel(file), layers);
    return importsOf(file)
      .filter((target) => from !== -1 && layerIndex(rel(target), layers) !== -1 && layerIndex(rel(target), layers) < from)
      .map((target) => `${rel(file)} -> ${rel(target)}`);
  });
}

/** The ESLint rule: a file that imports itself through others is an error, reported with the chain. */
const noCycle = {
  meta: { type: 'problem', schema: [], docs: { description: 'No import cycles: a file may not import itself through others.' } },
  create(context) {
    return {
      'Program:exit'(program) {
        const file = context.filename;
        const chain = cycleThrough(file, context.sourceCode.text);
        if (!chain) return;
        const names = [file, ...chain, file].map((step) => path.relative(context.cwd, step)).join(' -> ');
        context.report({ node: program, message: `Import cycle: ${names}. Move what both need to a third file, or invert one import.` });
      },
    };
  },
};

export const importGraphPlugin = { rules: { 'no-cycle': noCycle } };
