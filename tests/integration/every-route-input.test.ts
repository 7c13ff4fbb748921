import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldsOf, ownerOfEverything, pathOf, sample, sampleWith, typeAt, type FieldPath, type OwnedThings } from './every-route-support.js';
import type { ApiRoute } from '../../server/http/input-rules.js';

// The one input rule (server/http/input-rules.ts), on every route the app registers: each field of
// its path, query and body (nested fields and list items too) is sent a NUL (alone, and in a path), 1e400, 1.5, -1, text
// over any cap and 100 KB of text, the rest of the request being valid and the owner's own, so the
// request reaches the handler. No answer is a 5xx; a NUL is refused with 400 naming the field.

const OVER_CAP = 'x'.repeat(5000);
const HUGE = 'x'.repeat(100 * 1024);

/** What each bad value is in a path or query (text) and in a JSON body (a raw token: 1e400 parses to Infinity). */
const BAD = [
  { name: 'NUL', text: 'a\u0000b', json: JSON.stringify('a\u0000b') },
  // Also where a field must start with / (a page path or pattern), so the value passes its pattern.
  { name: 'NUL in a path', text: '/a\u0000b', json: JSON.stringify('/a\u0000b') },
  { name: '1e400', text: '1e400', json: '1e400' },
  { name: '1.5', text: '1.5', json: '1.5' },
  { name: '-1', text: '-1', json: '-1' },
  { name: '5000 characters', text: OVER_CAP, json: JSON.stringify(OVER_CAP) },
  { name: '100 KB', text: HUGE, json: JSON.stringify(HUGE) },
];
type Bad = (typeof BAD)[number];

/** Stands in for the bad value in a body, replaced by its raw JSON token. */
const MARK = '\u0001bad\u0001';

let things: OwnedThings;
beforeAll(async () => {
  things = await ownerOfEverything();
});
afterAll(async () => things?.server.close());

interface Probe {
  route: string;
  field: string;
  /** The field's type in the route's schema. */
  type?: string;
  value: string;
  status: number;
  error?: string;
}

/** The request of `route` with `bad` in one field of `part`, every other field valid. */
function request(route: ApiRoute, part: 'params' | 'querystring' | 'body', field: FieldPath, bad: Bad) {
  const { owner, ids } = things;
  const querySchema = route.schema.querystring as Parameters<typeof sample>[0] | undefined;
  const query = part === 'querystring' ? sampleWith(querySchema ?? {}, field, bad.text) : querySchema ? sample(querySchema) : {};
  const bodySchema = route.schema.body as Parameters<typeof sample>[0] | undefined;
  const body =
    part === 'body'
      ? JSON.stringify(sampleWith(bodySchema ?? {}, field, MARK)).replace(JSON.stringify(MARK), bad.json)
      : bodySchema
        ? JSON.stringify(sample(bodySchema))
        : undefined;
  const search = new URLSearchParams(Object.entries(query as Record<string, unknown>).map(([k, v]) => [k, String(v)]));
  return {
    url: `${things.server.url}${pathOf(route, ids, part === 'params' ? { [field[0]]: bad.text } : {})}${search.size ? `?${search}` : ''}`,
    init: { method: route.method, headers: { ...owner.headers, ...(body ? { 'content-type': 'application/json' } : {}) }, body, redirect: 'manual' as const },
  };
}

async function probe(route: ApiRoute, part: 'params' | 'querystring' | 'body', field: FieldPath, bad: Bad): Promise<Probe> {
  const { url, init } = request(route, part, field, bad);
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(20_000) });
  const json = (res.headers.get('content-type') ?? '').startsWith('application/json');
  // A live stream that opened is left at once: its status is the answer.
  const error = json && res.status >= 400 ? ((await res.json()) as { error?: string }).error : void (await res.body?.cancel());
  const type = typeAt((route.schema[part] ?? {}) as Parameters<typeof typeAt>[0], field);
  return { route: `${route.method} ${route.url}`, field: [part, ...field].join('.'), type, value: bad.name, status: res.status, error };
}

/** Every (route, part, field) the walk sends bad values to: what each route's schema says it reads. */
function targets(routes: readonly ApiRoute[]) {
  return routes.flatMap((route) =>
    (['params', 'querystring', 'body'] as const).flatMap((part) => {
      const schema = route.schema[part] as Parameters<typeof fieldsOf>[0] | undefined;
      return schema ? fieldsOf(schema).map((field) => ({ route, part, field })) : [];
    }),
  );
}

/** Runs `work` over `items`, a few at a time (the machine is shared; the server is one process). */
async function inTurn<T, R>(items: T[], work: (item: T) => Promise<R>, width = 4): Promise<R[]> {
  const results: R[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const item = items[next++];
        results.push(await work(item));
      }
    }),
  );
  return results;
}

describe('every field of every route', () => {
  let probes: Probe[];

  // Destructive routes last, so the owner's things are there for every other route.
  beforeAll(async () => {
    const routes = [...things.server.app.ctx.apiRoutes].sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));
    const sends = targets(routes).flatMap((target) => BAD.map((bad) => ({ ...target, bad })));
    probes = await inTurn(sends, ({ route, part, field, bad }) => probe(route, part, field, bad));
  }, 150_000);

  it('reaches a good share of the API’s fields, signed in throughout', async () => {
    expect(new Set(probes.map((p) => p.route)).size).toBeGreaterThan(40);
    expect(new Set(probes.map((p) => `${p.route} ${p.field}`)).size).toBeGreaterThan(150);
    // Where a bad value is still a valid one ("-1" as search text), the handler answered.
    expect(probes.filter((p) => p.status < 300).length).toBeGreaterThan(100);
    expect(probes.filter((p) => p.status === 401)).toEqual([]);
    expect((await fetch(`${things.server.url}/api/v1/auth/me`, { headers: things.owner.headers })).status).toBe(200);
  });

  it('answers no bad value with a 5xx', () => {
    expect(probes.filter((p) => p.status >= 500)).toEqual([]);
  });

  it('refuses a NUL in any field with 400, naming the field', () => {
    const nul = probes.filter((p) => p.value.startsWith('NUL'));
    const refused = nul.filter((p) => p.status === 400 && p.error === `${p.field} must not contain NUL`);
    expect(nul.filter((p) => !refused.includes(p))).toEqual([]);
  });

  it('refuses 1.5 and 1e400 in a whole-number field with 400 naming the field', () => {
    const whole = probes.filter((p) => p.type === 'integer' && (p.value === '1.5' || p.value === '1e400'));
    expect(whole.length).toBeGreaterThan(40);
    // The campaign form's own words name the field as the form does ("Session limit must be…").
    const named = (p: Probe) =>
      p.error?.toLowerCase().includes(
        p.field
          .split('.')
          .filter((part) => !/^\d+$/.test(part))
          .at(-1)
          ?.toLowerCase() as string,
      );
    expect(whole.filter((p) => p.status !== 400 || !named(p))).toEqual([]);
  });
});
