import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { repoESLint } from '../../helpers/repo-eslint.js';
import { describe, expect, it } from 'vitest';

// The import rule between the programs, checked through ESLint's own API on small in-memory
// files: each forbidden crossing must be an error, and importing common/ must pass.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const eslint = repoESLint(root);

/** The boundary errors ESLint reports for `source` as if it were the file at `file`. */
async function boundaryErrors(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: path.join(root, file) });
  return result.messages.filter((m) => m.severity === 2 && (m.ruleId === 'no-restricted-imports' || m.ruleId === 'no-restricted-syntax')).map((m) => m.message);
}

const staticImport = (target: string) => `import * as other from '${target}';\nexport { other };\n`;
const dynamicImport = (target: string) => `export const load = () => import('${target}');\n`;

const forbidden: Array<{ from: string; file: string; target: string; names: string }> = [
  { from: 'server', file: 'server/auth/probe.ts', target: '../../src/api/client.js', names: 'the PWA' },
  { from: 'server', file: 'server/probe.ts', target: '../tracker/src/batch.js', names: 'the tracker' },
  { from: 'server', file: 'server/replay/probe.ts', target: '../../sw/sw.js', names: 'the service worker' },
  { from: 'src', file: 'src/screens/probe.tsx', target: '../../server/config.js', names: 'the server' },
  { from: 'src', file: 'src/routes/_authed/campaign/probe.tsx', target: '../../../../tracker/src/batch.js', names: "the tracker's recorder" },
  { from: 'tracker', file: 'tracker/src/probe.ts', target: '../../server/config.js', names: 'the server' },
  { from: 'tracker', file: 'tracker/src/probe.ts', target: '../../src/lib/format.js', names: 'the PWA' },
  { from: 'sw', file: 'sw/probe.ts', target: '../server/config.js', names: 'the server' },
  { from: 'common', file: 'common/api/probe.ts', target: '../../server/config.js', names: 'the server' },
  { from: 'common', file: 'common/probe.ts', target: '../src/lib/format.js', names: 'the PWA' },
  { from: 'common', file: 'common/probe.ts', target: '../tracker/src/batch.js', names: 'the tracker' },
  { from: 'common', file: 'common/probe.ts', target: '../sw/sw.js', names: 'the service worker' },
];

describe('imports between programs', () => {
  it.each(forbidden)('$file may not import $target', async ({ file, target, names }) => {
    const errors = await boundaryErrors(file, staticImport(target));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(`must not import ${names}`);
    expect(errors[0]).toContain('common/');
  });

  it('catches a crossing made with import() too', async () => {
    expect(await boundaryErrors('src/screens/probe.tsx', dynamicImport('../../server/app.js'))).toHaveLength(1);
    expect(await boundaryErrors('server/auth/probe.ts', dynamicImport('../../src/main.js'))).toHaveLength(1);
  });

  it('lets every program import common/, and its own folders', async () => {
    const allowed = [
      { file: 'server/auth/probe.ts', target: '../../common/limits.js' },
      { file: 'src/screens/probe.tsx', target: '../../common/api-types.js' },
      { file: 'tracker/src/probe.ts', target: '../../common/limits.js' },
      { file: 'sw/probe.ts', target: '../common/limits.js' },
      { file: 'common/api/probe.ts', target: '../limits.js' },
      { file: 'server/auth/probe.ts', target: '../db/index.js' },
      // tracker/src is the tracker's own folder, reached from tracker/ itself.
      { file: 'tracker/probe.ts', target: './src/batch.js' },
      // The service worker shares the PWA's offline code; only the server is off limits to it.
      { file: 'sw/probe.ts', target: '../src/offline/replayStore.js' },
    ];
    for (const { file, target } of allowed) {
      expect(await boundaryErrors(file, staticImport(target)), `${file} → ${target}`).toEqual([]);
      expect(await boundaryErrors(file, dynamicImport(target)), `${file} → import(${target})`).toEqual([]);
    }
  });
});
