import type { FastifyInstance } from 'fastify';
import { badRequest } from './errors.js';

// Ajv (8.20) coerces "1e400" or "Infinity" in a query string or path to Infinity, which then
// passes the `integer` type and skips `minimum`/`maximum` (those only test finite numbers): the
// database is left to refuse it, with a 500 on PostgreSQL. A JSON body cannot hold one, so any
// non-finite number a route sees came from such a coercion and is refused here, on every route.

const bad = (item: unknown) => typeof item === 'number' && !Number.isFinite(item);

/** The first field holding a non-finite number (alone or in an array), if any. */
function nonFiniteField(values: unknown): string | undefined {
  if (!values || typeof values !== 'object') return undefined;
  return Object.keys(values).find((key) => {
    const value: unknown = (values as Record<string, unknown>)[key];
    return Array.isArray(value) ? value.some(bad) : bad(value);
  });
}

/** Refuses, with 400, a query or path parameter that validation left as ±Infinity, on every route registered after. */
export function refuseNonFiniteNumbers(app: FastifyInstance): void {
  app.addHook('preHandler', (request, _reply, done) => {
    const query = nonFiniteField(request.query);
    const param = query ? undefined : nonFiniteField(request.params);
    const field = query ? `querystring.${query}` : param ? `params.${param}` : undefined;
    done(field ? badRequest(`${field} must be a finite number`) : undefined);
  });
}
