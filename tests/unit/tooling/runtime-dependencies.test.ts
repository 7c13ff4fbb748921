import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../../scripts/build-server.mjs';

// `npm ci --omit=dev` then `node dist/server/main.js` must work: every package the compiled server
// loads is a dependency, and every dependency is one it loads (the rest build the PWA, the
// tracker or the server itself, or run the tests).

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
/** Dependencies the server needs without importing them, and why. */
const notImported: Record<string, string> = {
  '@ip-location-db/geo-whois-asn-country-mmdb': 'its database file is read from disk by package path',
  terser: "the dashboard minifies a downloaded tracker script with it, on that click (issue 35's terms)",
};

let outDir: string;
let loaded: Record<string, string[]>;
beforeAll(async () => {
  outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tapedeck-server-build-'));
  loaded = await buildServer(outDir);
});
afterAll(() => fs.rmSync(outDir, { recursive: true, force: true }));

describe('the compiled server and package.json', () => {
  it('builds main, the user command and each worker', () => {
    expect(fs.readdirSync(outDir).sort()).toEqual(['demo', 'main.js', 'pack-worker.cjs', 'read-worker.cjs', 'user.js']);
  });

  it('loads only packages listed in dependencies', () => {
    for (const [file, packages] of Object.entries(loaded)) {
      expect({ file, missing: packages.filter((name) => !(name in manifest.dependencies)) }).toEqual({ file, missing: [] });
    }
  });

  it('lists in dependencies only packages it loads (or reads)', () => {
    const used = new Set([...Object.values(loaded).flat(), ...Object.keys(notImported)]);
    expect(Object.keys(manifest.dependencies).filter((name) => !used.has(name))).toEqual([]);
  });

  it('keeps the build tools out of dependencies, and out of the compiled server', () => {
    for (const tool of ['esbuild', 'tsx', 'vite', '@vitejs/plugin-react', 'vite-plugin-pwa', '@tanstack/router-plugin']) {
      expect(manifest.dependencies).not.toHaveProperty(tool);
      expect(manifest.devDependencies).toHaveProperty(tool);
    }
    expect(Object.values(loaded).flat()).not.toContain('esbuild');
  });
});
