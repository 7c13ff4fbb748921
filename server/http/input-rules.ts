import type { FastifyInstance, FastifySchema, HTTPMethods, RouteOptions } from 'fastify';
import { badRequest } from './errors.js';
import { isPermission, type Permission } from '../../common/teams.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The workspace permission the route needs (common/teams.ts); teams/access.ts asks it for the caller's role. */
    permission?: Permission;
    /** Why a route needs no workspace permission: 'public' (no account), 'account' (the caller's own account only). */
    access?: 'public' | 'account';
  }
}

// One input rule for every route, so a new route has it without remembering:
// - at registration, a route under /api/v1 must declare a schema for what it reads, with every
//   string bounded (maxLength, or a fixed set) and every number given a range and whole (or a
//   declared multipleOf); the server does not start otherwise, so over-long text, out-of-range
//   numbers and 1.5 where a whole number is meant are refused by validation;
// - on each request, no string anywhere in the path, query or body holds a NUL (PostgreSQL's text
//   refuses one with a 500; SQLite would store it), and no number is ±Infinity: Ajv coerces "1e400"
//   in a query or path to Infinity, JSON.parse reads 1e400 in a body as Infinity, and minimum and
//   maximum only test finite numbers.

/** The parts of a request a route's schema validates, as Fastify names them in errors. */
const PARTS = ['params', 'querystring', 'body'] as const;
type Part = (typeof PARTS)[number];

/** A registered route as the rules (and the tests that walk every route) see it. */
export interface ApiRoute {
  method: HTTPMethods;
  url: string;
  schema: Pick<FastifySchema, Part>;
  crossSite?: string;
  /** The workspace permission it needs, or why it needs none. */
  permission?: Permission;
  access?: 'public' | 'account';
}

/** A JSON Schema node, as the rule reads it (and the API reference page draws it, http/api-docs-page.ts). */
export interface SchemaNode {
  $ref?: string;
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  anyOf?: SchemaNode[];
  oneOf?: SchemaNode[];
  allOf?: SchemaNode[];
  properties?: Record<string, SchemaNode>;
  patternProperties?: Record<string, SchemaNode>;
  additionalProperties?: SchemaNode | boolean;
  items?: SchemaNode | SchemaNode[];
  minItems?: number;
  maxItems?: number;
  required?: string[];
}

export const types = (node: SchemaNode) => (Array.isArray(node.type) ? node.type : node.type ? [node.type] : []);

/** Where in a schema a string has no length cap or a number no range ("body.patterns[]"). */
function unboundedFields(node: SchemaNode, at: string): string[] {
  if ('const' in node || node.enum) return [];
  const flaws: string[] = [];
  for (const branch of [...(node.anyOf ?? []), ...(node.oneOf ?? []), ...(node.allOf ?? [])]) flaws.push(...unboundedFields(branch, at));
  for (const type of types(node)) {
    if (type === 'string' && node.maxLength === undefined) flaws.push(`${at} is text without maxLength`);
    if ((type === 'number' || type === 'integer') && (node.minimum ?? node.exclusiveMinimum) === undefined) flaws.push(`${at} is a number without minimum`);
    if ((type === 'number' || type === 'integer') && (node.maximum ?? node.exclusiveMaximum) === undefined) flaws.push(`${at} is a number without maximum`);
    // The API's numbers are whole (epoch ms, counts, seq): a fraction is allowed only at a declared precision.
    if (type === 'number' && node.multipleOf === undefined) flaws.push(`${at} may be a fraction: Type.Integer, or a multipleOf`);
  }
  for (const [name, child] of Object.entries(node.properties ?? {})) flaws.push(...unboundedFields(child, `${at}.${name}`));
  for (const child of Object.values(node.patternProperties ?? {})) flaws.push(...unboundedFields(child, `${at}.*`));
  if (typeof node.additionalProperties === 'object') flaws.push(...unboundedFields(node.additionalProperties, `${at}.*`));
  for (const child of [node.items ?? []].flat()) flaws.push(...unboundedFields(child, `${at}[]`));
  return flaws;
}

/** What a route's schema lacks for the rule, in words; empty when it has all. */
function routeFlaws(route: RouteOptions): string[] {
  const schema = (route.schema ?? {}) as Partial<Record<Part, SchemaNode>>;
  const flaws = PARTS.flatMap((part) => (schema[part] ? unboundedFields(schema[part], part) : []));
  if (route.url.includes(':') && !schema.params) flaws.push('its path parameters have no schema');
  // Every route says what it needs of a workspace (common/teams.ts), or why it needs nothing.
  const { permission, access } = route.config ?? {};
  if (permission === undefined && access === undefined) flaws.push('it declares no permission (config.permission) and no access (config.access)');
  if (permission !== undefined && (access !== undefined || !isPermission(permission)))
    flaws.push(`its permission ${String(permission)} is not one of common/teams.ts`);
  return flaws;
}

/** The first field (as "body.patterns[0]") holding a NUL or a non-finite number, and what is wrong with it. */
function badValue(value: unknown, at: string, depth = 0): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? `${at} must not contain NUL` : undefined;
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : `${at} must be a finite number`;
  // A raw body (ingest's Buffer) is its route's to read.
  if (!value || typeof value !== 'object' || ArrayBuffer.isView(value) || depth > 32) return undefined;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const bad = badValue(item, `${at}.${i}`, depth + 1);
      if (bad) return bad;
    }
    return undefined;
  }
  for (const [key, item] of Object.entries(value)) {
    const bad = badValue(key, `${at} field name`, depth + 1) ?? badValue(item, `${at}.${key}`, depth + 1);
    if (bad) return bad;
  }
  return undefined;
}

/** The first bad value of a request's path and query, then of its body once read, as a reason for a 400. */
const badPathOrQuery = (request: { params: unknown; query: unknown }) => badValue(request.params, 'params') ?? badValue(request.query, 'querystring');
const badInput = (request: { params: unknown; query: unknown; body: unknown }) => badPathOrQuery(request) ?? badValue(request.body, 'body');

/** Installs the rule on every route registered after it (call before the API areas); the routes, listed as they register. */
export function applyInputRules(app: FastifyInstance): readonly ApiRoute[] {
  const routes: ApiRoute[] = [];
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/v1/')) return;
    const flaws = routeFlaws(route);
    if (flaws.length) throw new Error(`${String(route.method)} ${route.url} breaks the input rule (server/http/input-rules.ts): ${flaws.join('; ')}`);
    for (const method of [route.method].flat())
      if (method !== 'HEAD')
        routes.push({
          method,
          url: route.url,
          schema: route.schema ?? {},
          crossSite: route.config?.crossSite,
          permission: route.config?.permission,
          access: route.config?.access,
        });
  });
  // A NUL in the path or query before anything reads them (ingest looks its campaign up on request),
  // in the body once parsed; Infinity appears only after validation (Ajv's coercion of "1e400").
  app.addHook('onRequest', async (request) => {
    const bad = badPathOrQuery(request);
    if (bad) throw badRequest(bad);
  });
  app.addHook('preValidation', async (request) => {
    const bad = badValue(request.body, 'body');
    if (bad) throw badRequest(bad);
  });
  app.addHook('preHandler', async (request) => {
    const bad = badInput(request);
    if (bad) throw badRequest(bad);
  });
  return routes;
}
