import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { startServer, type TestServer } from '../helpers/server.js';
import { apiDocsPage, type OpenApiDocument } from '../../server/http/api-docs-page.js';
import type { ApiRoute } from '../../server/http/input-rules.js';
import { API_CSP } from '../../server/http/security.js';
import { ROUTE_SCOPES } from '../../server/api-keys/scopes.js';

// The API reference (/api/openapi.json, /api/docs) is generated from the routes' schemas: the
// document must validate as OpenAPI 3.1, describe every /api/v1 route the server registers and
// nothing else, and every route must declare a schema for what it takes (docs/api.md's
// "body / query" column says what that is). The page must read under its own strict CSP.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };

/** Bodies that are not JSON, so no JSON Schema can describe them: each with where it is checked. */
const RAW_BODIES: Record<string, string> = {
  'POST /api/v1/ingest/{campaignId}': 'a gzip batch, checked field by field in a worker (common/ingest-batch.ts)',
};

const openApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');
const keyOf = (route: Pick<ApiRoute, 'method' | 'url'>) => `${route.method} ${openApiPath(route.url)}`;

/** docs/api.md's "body / query" column, by `METHOD /path`, for each method of each row. */
function documentedInputs(): Map<string, string> {
  const markdown = fs.readFileSync(path.join(root, 'docs/api.md'), 'utf8');
  const rows = markdown.matchAll(/^\| ([A-Z, ]+) \| `(\/api\/v1\/[^`]*)` \| [^|]* \| ([^|]*) \|/gm);
  return new Map([...rows].flatMap(([, methods, url, column]) => methods.split(', ').map((method) => [`${method} ${url}`, column.trim()] as const)));
}

/** What a row says one of its methods takes: a row naming methods (`PUT: {patterns}`) speaks for those only. */
function takes(method: string, column: string): { body: boolean; query: boolean } {
  // Link targets (`(#campaign-fields-…-query-strings)`) are not words of the column.
  const words = column.replace(/\]\([^)]*\)/g, ']');
  const perMethod = /\b(GET|POST|PUT|PATCH|DELETE):/.test(words);
  const says = words !== '—' && (!perMethod || words.includes(`${method}:`));
  return { body: says && method !== 'GET', query: says && method === 'GET' && /\bquery\b/.test(words) };
}

let server: TestServer;
let doc: OpenApiDocument;
let jsonAnswer: Response;

beforeAll(async () => {
  server = await startServer();
  jsonAnswer = await fetch(`${server.url}/api/openapi.json`);
  doc = (await jsonAnswer.json()) as OpenApiDocument;
});
afterAll(() => server?.close());

const operationOf = (route: Pick<ApiRoute, 'method' | 'url'>) => doc.paths[openApiPath(route.url)]?.[route.method.toLowerCase()];

describe('GET /api/openapi.json', () => {
  it('answers an OpenAPI 3.1 document that validates, named Tapedeck at the package version', async () => {
    expect(jsonAnswer.status).toBe(200);
    expect(jsonAnswer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toMatchObject({ title: 'Tapedeck', version: pkg.version });
    const validator = new Validator();
    const result = await validator.validate(doc as unknown as Record<string, unknown>);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    // The validator does refuse a broken document: an operation without its responses.
    const broken = structuredClone(doc) as unknown as { paths: Record<string, Record<string, { responses?: unknown }>> };
    broken.paths['/api/v1/auth/me'].get.responses = 'none';
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  it('describes every /api/v1 route the server registers, with its methods, and nothing else', () => {
    const routes = server.app.ctx.apiRoutes;
    expect(routes.length).toBeGreaterThan(50);
    expect(routes.filter((route) => !operationOf(route)).map(keyOf)).toEqual([]);
    const described = Object.entries(doc.paths).flatMap(([url, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${url}`));
    expect(described.sort()).toEqual(routes.map(keyOf).sort());
  });

  it('gives every operation a summary and an area, and needs no sign-in only where the route is public', () => {
    const routes = server.app.ctx.apiRoutes;
    expect(routes.filter((route) => !operationOf(route)?.summary).map(keyOf)).toEqual([]);
    expect(routes.filter((route) => operationOf(route)?.tags?.length !== 1).map(keyOf)).toEqual([]);
    expect(operationOf({ method: 'GET', url: '/api/v1/funnels/:campaignId' })?.tags).toEqual(['funnels']);
    const publicOnes = routes.filter((route) => operationOf(route)?.security?.length === 0).map(keyOf);
    expect(publicOnes.sort()).toEqual(
      routes
        .filter((route) => route.access === 'public')
        .map(keyOf)
        .sort(),
    );
    expect(doc.security).toEqual([{ session: [] }]);
    expect(doc.components?.securitySchemes).toMatchObject({ session: { type: 'apiKey', in: 'cookie' }, apiKey: { type: 'http', scheme: 'bearer' } });
  });

  it('lists the API key, with its scope, on exactly the operations a key may call (server/api-keys/scopes.ts)', () => {
    const routes = server.app.ctx.apiRoutes;
    const byKey = routes.filter((route) => operationOf(route)?.security?.some((scheme) => 'apiKey' in scheme));
    expect(byKey.map(keyOf).sort()).toEqual(
      routes
        .filter((route) => ROUTE_SCOPES[`${route.method} ${route.url}`])
        .map(keyOf)
        .sort(),
    );
    expect(operationOf({ method: 'GET', url: '/api/v1/campaign/getAll' })?.security).toEqual([{ session: [] }, { apiKey: ['sessions:read'] }]);
    expect(operationOf({ method: 'POST', url: '/api/v1/api-keys' })?.security).toBeUndefined();
  });

  it('has a schema for what each route takes: its path parameters, its query and its body', () => {
    const inputs = documentedInputs();
    const flaws: string[] = [];
    for (const route of server.app.ctx.apiRoutes) {
      const key = keyOf(route);
      const schema = route.schema as Record<string, { properties?: Record<string, unknown> } | undefined>;
      if (Object.keys(schema).length === 0) flaws.push(`${key} has no schema`);
      for (const [, name] of route.url.matchAll(/:(\w+)/g))
        if (!schema.params?.properties?.[name]) flaws.push(`${key} has no schema for its path parameter ${name}`);
      const column = inputs.get(key);
      if (column === undefined) flaws.push(`${key} is not in docs/api.md's endpoint table`);
      const taken = takes(route.method, column ?? '');
      if (taken.body && !schema.body && !RAW_BODIES[key]) flaws.push(`${key} takes a body (docs/api.md: ${column}) without a body schema`);
      if (taken.query && !schema.querystring) flaws.push(`${key} takes a query (docs/api.md: ${column}) without a querystring schema`);
      // What the schema declares, the document shows.
      const operation = operationOf(route);
      if (schema.body && !operation?.requestBody) flaws.push(`${key}: its body schema is missing from the document`);
      if (schema.querystring && !operation?.parameters?.some((p) => p.in === 'query')) flaws.push(`${key}: its query is missing from the document`);
    }
    expect(flaws).toEqual([]);
  });

  it('answers under the API policy (data, never a document)', () => {
    expect(jsonAnswer.headers.get('content-security-policy')).toBe(API_CSP);
  });
});

describe('GET /api/docs', () => {
  let answer: Response;
  let html: string;
  beforeAll(async () => {
    answer = await fetch(`${server.url}/api/docs`);
    html = await answer.text();
  });

  it('answers an HTML page that lists every path and operation of the document, linking to it', () => {
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const paths = Object.keys(doc.paths);
    expect(paths.filter((p) => !html.includes(`<code>${p}</code>`))).toEqual([]);
    const operations = Object.values(doc.paths).reduce((n, item) => n + Object.keys(item).length, 0);
    expect(html.match(/<article>/g)?.length).toBe(operations);
    expect(html).toContain('<a href="/api/openapi.json">');
    expect(html).toContain('Start signing in with the provider (a redirect)');
  });

  it('runs nothing and loads nothing its Content-Security-Policy would block', () => {
    const csp = answer.headers.get('content-security-policy') ?? '';
    const directives = new Map(csp.split(/;\s*/).map((d) => [d.split(' ')[0], d.split(' ').slice(1)] as const));
    expect(directives.get('default-src')).toEqual(["'none'"]);
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
    expect(directives.has('script-src')).toBe(false);
    expect(csp).not.toContain('unsafe-inline');
    // No script of any kind: no element, no handler attribute, no javascript: link.
    expect(html).not.toMatch(/<script|\son\w+\s*=|javascript:/i);
    // Its one stylesheet is allowed by its hash; nothing else loads from anywhere.
    const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map(([, css]) => `'sha256-${crypto.createHash('sha256').update(css).digest('base64')}'`);
    expect(styles).toHaveLength(1);
    expect(directives.get('style-src')).toEqual(styles);
    expect(html).not.toMatch(/<(link|img|iframe|object|embed)\b|\bstyle=|\bsrc=/i);
  });

  it('escapes what the document says', () => {
    const hostile = structuredClone(doc);
    hostile.info.title = '<script>alert(1)</script>';
    hostile.paths['/api/v1/auth/me'].get.summary = '"><img src=x onerror=alert(1)>';
    const page = apiDocsPage(hostile, '/api/openapi.json?a=1&b="2"');
    expect(page).not.toMatch(/<script>alert|<img src=x/);
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page).toContain('&quot;&gt;&lt;img src=x onerror=alert(1)&gt;');
    expect(page).toContain('href="/api/openapi.json?a=1&amp;b=&quot;2&quot;"');
  });
});
