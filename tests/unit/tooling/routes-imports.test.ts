import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { repoESLint } from '../../helpers/repo-eslint.js';
import { describe, expect, it } from 'vitest';

// Only buildApp (server/app.ts) imports a routes module (server/<area>/routes.ts): the lint rule,
// run through ESLint's API on small in-memory files, and the code as it is.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const eslint = repoESLint(root);
const RULE = '@typescript-eslint/no-restricted-imports';

async function routeImportErrors(file: string, target: string): Promise<string[]> {
  const [result] = await eslint.lintText(`import * as other from '${target}';\nexport { other };\n`, { filePath: path.join(root, file) });
  return result.messages.filter((m) => m.severity === 2 && m.ruleId === RULE).map((m) => m.message);
}

/** Every import specifier of a file's text (static, re-export and import()). */
const specifiers = (text: string) => [...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)'([^']+)'/g)].map((m) => m[1]);

function sourceFiles(folder: string): string[] {
  return fs.readdirSync(path.join(root, folder), { recursive: true, withFileTypes: true }).flatMap((entry) => {
    const file = path.relative(root, path.join(entry.parentPath, entry.name));
    return entry.isFile() && /\.(ts|tsx|mjs)$/.test(entry.name) && !file.includes('node_modules') ? [file] : [];
  });
}

/** A specifier of `file` that names a routes module of the server, as a path from the root. */
function routesModule(file: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const target = path.relative(root, path.resolve(root, path.dirname(file), specifier)).replace(/\.(js|ts)$/, '');
  return /^server\/[^/]+\/routes$/.test(target) ? target : null;
}

describe('routes modules', () => {
  it.each([
    { file: 'server/notes/probe.ts', target: '../replay/routes.js' },
    { file: 'server/sessions/probe.ts', target: './routes.js' },
    { file: 'tests/integration/probe.test.ts', target: '../../server/replay/routes.js' },
    { file: 'bench/figures/probe.ts', target: '../../server/ingest/routes.js' },
  ])('$file may not import $target', async ({ file, target }) => {
    const errors = await routeImportErrors(file, target);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('Only server/app.ts imports a routes module');
  });

  it('are imported by server/app.ts, and a file named like one (local-routes.ts) by anyone', async () => {
    expect(await routeImportErrors('server/app.ts', './replay/routes.js')).toEqual([]);
    expect(await routeImportErrors('server/auth/probe.ts', './local-routes.js')).toEqual([]);
    expect(await routeImportErrors('server/notes/probe.ts', '../sessions/ownership.js')).toEqual([]);
  });

  it('are imported by no file but server/app.ts', () => {
    const files = ['server', 'tests', 'bench', 'scripts', 'src', 'common'].flatMap(sourceFiles);
    expect(files).toContain('server/app.ts');
    const importers = files.flatMap((file) => {
      const text = fs.readFileSync(path.join(root, file), 'utf8');
      return specifiers(text).flatMap((specifier) => (routesModule(file, specifier) ? [`${file} → ${specifier}`] : []));
    });
    expect(importers.filter((line) => !line.startsWith('server/app.ts '))).toEqual([]);
    expect(importers.length).toBeGreaterThan(10);
  });
});
