import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { importGraphPlugin } from './scripts/import-graph.mjs';

/**
 * Each program is a top-level folder: server/ (Node), src/ (the PWA), tracker/ (the loader and the
 * recorder that run on visitors' pages), sw/ (the service worker). Code two programs need lives in
 * common/, which imports none of them. Imports are relative, so a file `depth` folders down crosses
 * into another program with exactly `depth` `../` followed by that program's folder.
 */
const programs = {
  server: 'the server',
  src: 'the PWA',
  tracker: 'the tracker',
  'tracker/src': "the tracker's recorder",
  sw: 'the service worker',
  common: 'common/',
};
const deepestFolder = 8;
const capitalised = (text) => text[0].toUpperCase() + text.slice(1);

/** `\x2F` is `/`: selectors end a regex at a plain slash. */
const reaching = (folder, depth) => `^(\\.\\.\\x2F){${depth}}${folder.replace('/', '\\x2F')}(\\x2F|$)`;

/**
 * No regular expression is built from text at run time in the server or common/: one built from
 * an owner's or a visitor's text can backtrack for ever (ISSUE-34). A literal, or a comment saying
 * why the text is safe.
 */
const builtRegExp = ['NewExpression', 'CallExpression'].map((node) => ({
  selector: `${node}[callee.name='RegExp'][arguments.0.type!='Literal']`,
  message: 'No RegExp built from text here: use a regex literal (page patterns: common/page-pattern.ts).',
}));
const syntaxOf = { server: builtRegExp, common: builtRegExp };

/** Forbid the program in `from` importing any of `folders`, statically or with `import()` (and its other syntax rules: they share the one rule option). */
function boundary(from, folders) {
  const message = (folder) => `${capitalised(programs[from])} must not import ${programs[folder]} (${folder}/): move what both need to common/.`;
  return Array.from({ length: deepestFolder }, (_, i) => i + 1).map((depth) => ({
    files: [`${from}/${'*/'.repeat(depth - 1)}*.{ts,tsx,js,mjs}`],
    rules: {
      'no-restricted-imports': ['error', { patterns: folders.map((folder) => ({ regex: reaching(folder, depth), message: message(folder) })) }],
      'no-restricted-syntax': [
        'error',
        ...folders.map((folder) => ({ selector: `ImportExpression[source.value=/${reaching(folder, depth)}/]`, message: message(folder) })),
        ...(syntaxOf[from] ?? []),
      ],
    },
  }));
}

/**
 * A routes module (server/<area>/routes.ts) registers its area's routes; only buildApp
 * (server/app.ts) imports one. What others need lives beside it: sessions/ownership.ts,
 * replay/gate.ts, the area's repository.ts, common/.
 */
const routesPattern = (regex) => ({
  regex,
  message: 'Only server/app.ts imports a routes module: move what this file needs out of it (sessions/ownership.ts, replay/gate.ts, a repository, common/).',
});
const ROUTES_PATTERN = routesPattern('(^|/)routes(\\.[jt]s)?$');
const routesOnlyFromApp = (pattern) => ({ '@typescript-eslint/no-restricted-imports': ['error', { patterns: [pattern] }] });

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'coverage/**', 'bench/.tmp/**', 'src/routeTree.gen.ts', 'tests/fixtures/**'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // `_name` marks a parameter or binding kept for its position (callbacks, destructuring).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
    },
  },
  {
    files: ['src/**', 'tracker/src/**', 'tracker/loader.js', 'sw/**', 'tests/unit/src/**', 'tests/e2e/**', 'bench/**', 'scripts/**'],
    languageOptions: { globals: { ...globals.browser } },
  },
  { files: ['sw/**'], languageOptions: { globals: { ...globals.serviceworker } } },
  // The tracker wraps the page's fetch/XHR: `arguments` hands on the caller's exact arguments in the fewest bytes.
  { files: ['tracker/src/capture.ts'], rules: { 'prefer-rest-params': 'off' } },
  { files: ['src/**/*.{ts,tsx}', 'tests/unit/src/**/*.{ts,tsx}'], ...reactHooks.configs.flat.recommended },

  { files: ['server/**/*.ts'], ignores: ['server/app.ts'], rules: routesOnlyFromApp(ROUTES_PATTERN) },
  {
    files: ['tests/**/*.{ts,tsx}', 'bench/**/*.ts', 'scripts/**/*.{ts,mjs}'],
    rules: routesOnlyFromApp(routesPattern('(^|/)server/([^/]+/)?routes(\\.[jt]s)?$')),
  },
  // Type-aware, for the programs: a promise nobody awaits loses its failure (an unhandled
  // rejection ends a Node process and is silent on a visitor's page). `void` says it is meant.
  {
    files: ['server/**/*.ts', 'src/**/*.{ts,tsx}', 'common/**/*.ts', 'tracker/src/**/*.ts', 'sw/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: { '@typescript-eslint/no-floating-promises': 'error' },
  },
  // No file imports itself through others (scripts/import-graph.mjs): a cycle is two files that
  // cannot be read, tested or moved apart.
  { files: ['server/**', 'src/**', 'common/**', 'tracker/**', 'sw/**'], plugins: { local: importGraphPlugin }, rules: { 'local/no-cycle': 'error' } },
  // Recordings is the writer ingest calls: it defines the batch it accepts (rules.ts RecordedBatch)
  // and imports nothing of its caller. (A rule of its own name: the server's boundary above holds
  // the plain no-restricted-imports; the routes pattern again, since this entry replaces the one above.)
  {
    files: ['server/recordings/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            ROUTES_PATTERN,
            {
              regex: '^(\\.\\./)+(server/)?ingest(/|$)',
              message: 'server/recordings/ imports nothing from server/ingest/: recordings defines what it accepts (rules.ts).',
            },
          ],
        },
      ],
    },
  },
  ...boundary('server', ['src', 'tracker', 'sw']),
  ...boundary('src', ['server', 'tracker/src']),
  ...boundary('tracker', ['server', 'src']),
  ...boundary('sw', ['server']),
  ...boundary('common', ['server', 'src', 'tracker', 'sw']),
  // The API's schemas (common/api/) are built with TypeBox: the PWA and the worker take only their
  // types, so no screen downloads TypeBox for a constant (the notes' caps once added 13 KB gzip to
  // the replay page). Plain values both need live in common/<topic>.ts.
  {
    files: ['src/**/*.{ts,tsx}', 'sw/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/common/api/*'],
              allowTypeImports: true,
              message: 'Only types come from common/api/ in the PWA (its values bring TypeBox): move the value to common/<topic>.ts.',
            },
          ],
        },
      ],
    },
  },
);
