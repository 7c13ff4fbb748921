import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The docs name files in backticks; a file renamed or removed leaves its name behind. Each
// backticked path in README.md and docs/*.md must name a file or folder of the repository.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const topLevel = new Set(fs.readdirSync(root));
const sourceFile = /^[\w.@-]+(\/[\w.@-]+)*\.(ts|tsx|js|mjs|cjs|json|jsonc|sql|html|css|sh)$/;

/** Every file and folder of the repository (relative, with '/'), skipping git's, what is built and what is installed. */
function repositoryPaths(dir = '', out: string[] = []): string[] {
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    if (entry.name === '.git' || entry.name === 'node_modules' || entry.name === 'dist') continue;
    const relative = dir ? `${dir}/${entry.name}` : entry.name;
    out.push(relative);
    if (entry.isDirectory()) repositoryPaths(relative, out);
  }
  return out;
}

/**
 * The backticked paths of a Markdown text: a path from the repository's root (its first part a
 * top-level entry, e.g. `server/app.ts` or `public/icons/*.svg`), or a source file's name given
 * within its section's folder (e.g. `pack-pool.ts`, `storage/scan-batch.ts`).
 */
function namedPaths(markdown: string): { path: string; fromRoot: boolean }[] {
  const named: { path: string; fromRoot: boolean }[] = [];
  for (const [, code] of markdown.matchAll(/`([^`\s]+)`/g)) {
    const bare = code.replace(/[#:].*$/, '').replace(/\/$/, '');
    const fromRoot = bare.includes('/') && topLevel.has(bare.split('/')[0]);
    if (fromRoot || sourceFile.test(bare)) named.push({ path: bare, fromRoot });
  }
  return named;
}

const globToRegExp = (glob: string) => new RegExp(`^${glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}$`);

/** Whether a named path matches the repository: exactly from the root, or as the end of a path. */
function exists(named: { path: string; fromRoot: boolean }, paths: string[]): boolean {
  const pattern = globToRegExp(named.path);
  return paths.some((p) => (named.fromRoot ? pattern.test(p) : p === named.path || p.endsWith(`/${named.path}`)));
}

const documents = [
  'README.md',
  ...fs
    .readdirSync(path.join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

describe('the paths the docs name', () => {
  it('are read from backticks, from the root or as a file within its folder, not URLs or words', () => {
    const text = 'See `server/app.ts`, `public/icons/*.svg`, `pack-pool.ts`, `server/app.ts:12`, `/api/v1/sessions`, `GET`, `a b/c`.';
    expect(namedPaths(text)).toEqual([
      { path: 'server/app.ts', fromRoot: true },
      { path: 'public/icons/*.svg', fromRoot: true },
      { path: 'pack-pool.ts', fromRoot: false },
      { path: 'server/app.ts', fromRoot: true },
    ]);
  });

  it('a path that does not exist is found missing', () => {
    const paths = repositoryPaths();
    expect(exists({ path: 'server/no-such-file.ts', fromRoot: true }, paths)).toBe(false);
    expect(exists({ path: 'no-such-file.ts', fromRoot: false }, paths)).toBe(false);
    expect(exists({ path: 'public/icons/*.svg', fromRoot: true }, paths)).toBe(true);
  });

  it('exist in the repository', () => {
    const paths = repositoryPaths();
    const missing = documents.flatMap((doc) =>
      namedPaths(fs.readFileSync(path.join(root, doc), 'utf8'))
        .filter((named) => !exists(named, paths))
        .map((named) => `${doc}: ${named.path}`),
    );
    expect(missing).toEqual([]);
  });
});
