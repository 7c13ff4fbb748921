import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

// docs/api.md's endpoint table is the API's reference: it must list every route the server
// registers under /api/v1, and nothing the server does not answer.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** `METHOD /path` for each method of each row of the table (`| GET, PUT | `/api/v1/…` | …`). */
function documentedRoutes(markdown: string): string[] {
  const rows = markdown.matchAll(/^\| ([A-Z, ]+) \| `(\/api\/v1\/[^`]*)` \|/gm);
  return [...rows].flatMap(([, methods, url]) => methods.split(', ').map((method) => `${method} ${url}`));
}

let server: TestServer;
beforeAll(async () => {
  server = await startServer({}, { databaseUrl: null });
});
afterAll(() => server.close());

describe('docs/api.md', () => {
  it('lists exactly the routes the server registers under /api/v1', () => {
    const registered = server.app.ctx.apiRoutes.map((route) => `${route.method} ${route.url.replace(/:(\w+)/g, '{$1}')}`);
    const documented = documentedRoutes(fs.readFileSync(path.join(root, 'docs/api.md'), 'utf8'));
    expect(documented.length).toBeGreaterThan(0);
    expect([...documented].sort()).toEqual([...registered].sort());
  });
});
