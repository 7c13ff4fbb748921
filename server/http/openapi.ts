import type { FastifyInstance, FastifySchema, RouteOptions } from 'fastify';
import swagger from '@fastify/swagger';
import pkg from '../../package.json' with { type: 'json' };
import type { Config } from '../config.js';
import { API_SUMMARIES } from './api-summaries.js';
import { apiDocsPage, DOCS_CSP, type OpenApiDocument } from './api-docs-page.js';

// The API reference, generated from the routes' own TypeBox schemas (@fastify/swagger watches
// every route as it registers): the OpenAPI 3.1 document at /api/openapi.json and a page drawn
// from it at /api/docs. Both are public, as the API they describe is (docs/api.md), take no
// input and are made once.
//
// Only the API under /api/v1 is described. Hidden: the app's pages and files, the tracker's
// loader and recorder (/t/…, /static/…: script files, not calls), the built-in sign-in
// provider (/oidc/…: OpenID Connect's own protocol), the health probes (deployment.md) and these
// two routes themselves.

export const OPENAPI_PATH = '/api/openapi.json';
export const DOCS_PATH = '/api/docs';
const API_PREFIX = '/api/v1/';

/** The path's first segment after /api/v1 names its area; a few read better in the product's words. */
const AREA_NAMES: Record<string, string> = { config: 'site', campaign: 'campaigns', streaming: 'sessions', invites: 'workspaces', shared: 'replay' };

/** The area an /api/v1 route is listed under (its OpenAPI tag). */
export function areaOf(url: string): string {
  const first = url.slice(API_PREFIX.length).split('/')[0];
  return AREA_NAMES[first] ?? first;
}

/** `GET /api/v1/funnels/{campaignId}`: an operation as docs/api.md and API_SUMMARIES name it. */
export const operationKey = (method: string, url: string) => `${method} ${url.replace(/:(\w+)/g, '{$1}')}`;

/** How a caller proves who it is: the session cookie (named by auth/tokens.ts), or an API key. */
const securitySchemes = (sessionCookie: string) =>
  ({
    session: {
      type: 'apiKey',
      in: 'cookie',
      name: sessionCookie,
      description: `The session cookie (${sessionCookie}) a sign-in sets; POST /api/v1/auth/refresh renews it.`,
    },
    apiKey: {
      type: 'http',
      scheme: 'bearer',
      description: 'A workspace API key, sent as `Authorization: Bearer td_…`; an operation lists it where a key may call it.',
    },
  }) as const;

/** The API key scope a route takes (api-keys/scopes.ts, handed in by app.ts), or null where keys are refused. */
export type ScopeOf = (method: string, url: string) => string | null;

/** Who may call: nobody needs to sign in for a public route; a key of the route's scope may call beside the session. */
function securityOf(route: RouteOptions, url: string, scopeOf: ScopeOf) {
  if (route.config?.access === 'public') return { security: [] };
  const scope = scopeOf([route.method].flat().join(', '), url);
  if (!scope) return {};
  const security: Record<string, string[]>[] = [{ session: [] }, { apiKey: [scope] }];
  return { security, description: `An API key needs the scope \`${scope}\`.` };
}

/** Each route's entry: /api/v1 routes get their area, summary and who may call; the rest are hidden. */
const describeRoute =
  (scopeOf: ScopeOf) =>
  ({ schema, url, route }: { schema: FastifySchema; url: string; route: RouteOptions }) => {
    if (!url.startsWith(API_PREFIX)) return { schema: { ...schema, hide: true }, url };
    const summary = API_SUMMARIES[operationKey([route.method].flat().join(', '), url)];
    return { url, schema: { ...schema, tags: [areaOf(url)], ...(summary ? { summary } : {}), ...securityOf(route, url, scopeOf) } };
  };

/**
 * Watches the routes registered after it (call before the API areas) and serves the reference.
 * `sessionCookie`: the signed-in session's cookie, which the document names; `scopeOf`: each route's API key scope.
 */
export async function registerOpenApi(app: FastifyInstance, config: Config, sessionCookie: string, scopeOf: ScopeOf): Promise<void> {
  await app.register(swagger, {
    mode: 'dynamic',
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Tapedeck',
        version: pkg.version,
        description: `Tapedeck's HTTP API, generated from the schemas every request is checked against. Errors answer {error}.`,
      },
      servers: [{ url: config.publicUrl }],
      components: { securitySchemes: securitySchemes(sessionCookie) },
      security: [{ session: [] }],
    },
    stripBasePath: false,
    transform: describeRoute(scopeOf),
  });
  // Made on first use: the document exists once every route has registered (after ready).
  const document = () => app.swagger() as unknown as OpenApiDocument;
  let page: string | undefined;
  app.get(OPENAPI_PATH, async (_request, reply) => reply.header('Cache-Control', 'no-cache').send(document()));
  app.get(DOCS_PATH, async (_request, reply) => {
    page ??= apiDocsPage(document(), OPENAPI_PATH);
    return reply.header('Content-Security-Policy', DOCS_CSP).header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').send(page);
  });
}
