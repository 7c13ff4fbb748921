import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { repoESLint } from '../../helpers/repo-eslint.js';
import tseslint from 'typescript-eslint';
import { afterAll, describe, expect, it } from 'vitest';
import { cycleThrough, importGraphPlugin, importsOf, sourcesUnder, upwardImports } from '../../../scripts/import-graph.mjs';

// The shape of the code's imports, checked: no cycles (the lint rule that keeps it fires), the
// server's folders import downward (SERVER_LAYERS), and the writer imports nothing of its caller.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const rel = (file: string) => path.relative(root, file).split(path.sep).join('/');

describe('the no-cycle lint rule', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-cycle-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, text: string) => fs.writeFileSync(path.join(dir, name), text);
  const eslint = new ESLint({
    cwd: dir,
    overrideConfigFile: true,
    overrideConfig: [
      { files: ['**/*.ts'], languageOptions: { parser: tseslint.parser }, plugins: { local: importGraphPlugin }, rules: { 'local/no-cycle': 'error' } },
    ],
  });
  const cycleErrors = async (name: string) => (await eslint.lintFiles([path.join(dir, name)]))[0].messages.filter((m) => m.ruleId === 'local/no-cycle');

  it('fails both files of a cycle, naming the chain, and passes once it is broken', async () => {
    write('a.ts', "import { b } from './b.js';\nexport const a = () => b;\n");
    write('b.ts', "import type { a } from './a.js';\nexport const b = 1;\nexport type A = typeof a;\n");
    const errors = await cycleErrors('a.ts');
    expect(errors).toHaveLength(1);
    expect(errors[0].message).toBe('Import cycle: a.ts -> b.ts -> a.ts. Move what both need to a third file, or invert one import.');
    expect(await cycleErrors('b.ts')).toHaveLength(1);
    write('b.ts', 'export const b = 1;\n');
    expect(await cycleErrors('a.ts')).toEqual([]);
  });

  it('follows re-exports and import() through a third file', async () => {
    write('c.ts', "export * from './d.js';\n");
    write('d.ts', "export const load = () => import('./e.js');\n");
    write('e.ts', "import './c.js';\nexport const e = 1;\n");
    expect((await cycleErrors('c.ts'))[0].message).toContain('c.ts -> d.ts -> e.ts -> c.ts');
  });

  it('is on for every program in eslint.config.js', async () => {
    const repo = new ESLint({ cwd: root });
    for (const file of ['server/probe.ts', 'src/probe.tsx', 'common/probe.ts', 'tracker/src/probe.ts', 'sw/probe.ts']) {
      const config = (await repo.calculateConfigForFile(path.join(root, file))) as { rules: Record<string, unknown> };
      expect(config.rules['local/no-cycle'], file).toEqual([2]);
    }
  });
});

describe('the code as it is', () => {
  it('has no import cycle in server/, src/, common/, tracker/ or sw/', () => {
    const cycles = ['server', 'src', 'common', 'tracker', 'sw']
      .flatMap((folder) => sourcesUnder(path.join(root, folder)))
      .map((file) => [file, cycleThrough(file)] as const)
      .filter(([, chain]) => chain !== null)
      .map(([file, chain]) => [file, ...chain!].map(rel).join(' -> '));
    expect(cycles).toEqual([]);
  });

  it('has the server import downward, but for these few (docs/architecture.md draws the layers)', () => {
    expect(upwardImports(root).sort()).toEqual([
      // A worker thread's task table runs a funnel's tally off the event loop.
      'server/db/read-worker.ts -> server/funnels/repository.ts',
      // Services handed the whole container.
      'server/live/replay-feed.ts -> server/context.ts',
    ]);
  });

  it('has nothing under server/recordings/ import server/ingest/, and lint refuses it', async () => {
    const intoIngest = sourcesUnder(path.join(root, 'server/recordings')).flatMap((file) =>
      importsOf(file).filter((target) => rel(target).startsWith('server/ingest/')),
    );
    expect(intoIngest).toEqual([]);
    const eslint = repoESLint(root);
    const source = "import type { PackedBatch } from '../ingest/pack.js';\nexport type Probe = PackedBatch;\n";
    const [result] = await eslint.lintText(source, { filePath: path.join(root, 'server/recordings/probe.ts') });
    const refused = result.messages.filter((m) => m.ruleId === '@typescript-eslint/no-restricted-imports');
    expect(refused).toHaveLength(1);
    expect(refused[0].message).toContain('server/recordings/ imports nothing from server/ingest/');
  });
});
