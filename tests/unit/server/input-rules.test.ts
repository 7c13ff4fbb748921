import Fastify from 'fastify';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { applyInputRules } from '../../../server/http/input-rules.js';
import { installErrorHandler } from '../../../server/http/errors.js';

// The registration half of the one input rule: a route under /api/v1 that leaves a string without
// a length cap, a number without a range or that may be any fraction, or its path parameters
// without a schema does not start.

function appWithRules() {
  const app = Fastify();
  installErrorHandler(app);
  return Object.assign(app, { apiRoutes: applyInputRules(app) });
}

describe('a route under /api/v1', () => {
  it.each([
    ['text without a cap in its body', { body: Type.Object({ note: Type.String() }) }, 'body.note is text without maxLength'],
    [
      'a number without a maximum in its query',
      { querystring: Type.Object({ to: Type.Integer({ minimum: 0 }) }) },
      'querystring.to is a number without maximum',
    ],
    [
      'a list of uncapped text nested in an optional field',
      { body: Type.Object({ rules: Type.Optional(Type.Object({ paths: Type.Array(Type.String()) })) }) },
      'body.rules.paths[] is text without maxLength',
    ],
    ['a number that may be a fraction', { querystring: Type.Object({ to: Type.Number({ minimum: 0, maximum: 9 }) }) }, 'querystring.to may be a fraction'],
    [
      'a union with an unbounded branch',
      { body: Type.Object({ at: Type.Union([Type.Integer({ maximum: 9 }), Type.Null()]) }) },
      'body.at is a number without minimum',
    ],
  ])('with %s is refused at registration', async (_, schema, flaw) => {
    const app = appWithRules();
    expect(() => app.post('/api/v1/thing', { schema }, async () => ({}))).toThrow(flaw);
    await app.close();
  });

  it('with path parameters and no schema for them is refused at registration', async () => {
    const app = appWithRules();
    expect(() => app.delete('/api/v1/thing/:id', async () => ({}))).toThrow('its path parameters have no schema');
    await app.close();
  });

  it('without a permission (or why it needs none), or with one the matrix lacks, is refused at registration', async () => {
    const app = appWithRules();
    expect(() => app.get('/api/v1/thing', async () => ({}))).toThrow('it declares no permission (config.permission) and no access (config.access)');
    const unknown = { permission: 'campaigns.everything' } as unknown as { permission: 'campaigns.view' };
    expect(() => app.get('/api/v1/other', { config: unknown }, async () => ({}))).toThrow('its permission campaigns.everything is not one of common/teams.ts');
    await app.close();
  });

  it('with every field bounded (or one of a set) starts, and is listed', async () => {
    const app = appWithRules();
    const schema = {
      params: Type.Object({ id: Type.String({ maxLength: 36 }) }),
      body: Type.Object({ kind: Type.Union([Type.Literal('a'), Type.Literal('b')]), at: Type.Integer({ minimum: 0, maximum: 10 }) }),
    };
    app.put('/api/v1/thing/:id', { schema, config: { permission: 'campaigns.manage' } }, async () => ({ ok: true }));
    await app.ready();
    expect(app.apiRoutes.map((route) => `${route.method} ${route.url}`)).toEqual(['PUT /api/v1/thing/:id']);
    await app.close();
  });

  it('refuses a NUL nested in a body and a non-finite number with 400 naming the field', async () => {
    const app = appWithRules();
    const schema = {
      body: Type.Object({
        list: Type.Array(Type.Object({ name: Type.String({ maxLength: 9 }) }), { maxItems: 3 }),
        n: Type.Optional(Type.Number({ minimum: 0, maximum: 1e9, multipleOf: 0.5 })),
      }),
    };
    app.post('/api/v1/thing', { schema, config: { access: 'public' } }, async () => ({ ok: true }));
    const post = (payload: string) => app.inject({ method: 'POST', url: '/api/v1/thing', headers: { 'content-type': 'application/json' }, payload });
    const nul = await post(JSON.stringify({ list: [{ name: 'ok' }, { name: 'a\u0000b' }] }));
    expect([nul.statusCode, nul.json()]).toEqual([400, { error: 'body.list.1.name must not contain NUL' }]);
    const infinite = await post('{"list": [], "n": 1e400}');
    expect(infinite.statusCode).toBe(400);
    expect((await post('{"list": [{"name": "ok"}], "n": 2.5}')).statusCode).toBe(200);
    await app.close();
  });
});
