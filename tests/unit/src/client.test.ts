import { describe, expect, it, vi } from 'vitest';
import { createApiClient, HttpError, UNAUTHORIZED_MESSAGE } from '../../../src/api/client.js';
import { API_PATHS } from '../../../src/api/paths.js';
import { fetchCampaigns } from '../../../src/api/campaigns.js';

// The network is the outside world here: a scripted fetch answers each call by path.
type Handler = (path: string, init: RequestInit) => Response | Promise<Response>;

function scriptedFetch(handler: Handler) {
  const calls: { path: string; init: RequestInit }[] = [];
  const fetchFn = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const path = String(input);
    calls.push({ path, init });
    return handler(path, init);
  });
  return { fetch: fetchFn as unknown as typeof fetch, calls };
}

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

describe('API client', () => {
  it('sends cookies and JSON, and reads JSON answers', async () => {
    const net = scriptedFetch(() => json(200, { data: [] }));
    const client = createApiClient({ fetch: net.fetch });
    await expect(client.post('/api/v1/campaign/create', { name: 'a' })).resolves.toEqual({ data: [] });
    const init = net.calls[0].init;
    expect(init.credentials).toBe('include');
    expect(new Headers(init.headers).get('Content-Type')).toBe('application/json');
    expect(init.body).toBe('{"name":"a"}');
  });

  it("raises 'HTTP error! status: {code}' for a non-OK answer, keeping the server's error", async () => {
    const client = createApiClient({ fetch: scriptedFetch(() => json(400, { error: 'Campaign name is required' })).fetch });
    const error = await client.get('/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).message).toBe('HTTP error! status: 400');
    expect((error as HttpError).serverMessage).toBe('Campaign name is required');
  });

  it('on 401 refreshes once and retries the call once', async () => {
    let meCalls = 0;
    const net = scriptedFetch((path) => {
      if (path === API_PATHS.refresh) return json(200, { ok: true });
      meCalls += 1;
      return meCalls === 1 ? json(401, { error: 'expired' }) : json(200, { name: 'Ada' });
    });
    const client = createApiClient({ fetch: net.fetch });
    await expect(client.get(API_PATHS.me)).resolves.toEqual({ name: 'Ada' });
    expect(net.calls.map((c) => c.path)).toEqual([API_PATHS.me, API_PATHS.refresh, API_PATHS.me]);
  });

  it('retries only once: a second 401 after the refresh is an HTTP error', async () => {
    const net = scriptedFetch((path) => (path === API_PATHS.refresh ? json(200, {}) : json(401, {})));
    const client = createApiClient({ fetch: net.fetch, onUnauthorized: vi.fn() });
    await expect(client.get('/api/v1/campaign/getAll')).rejects.toThrow('HTTP error! status: 401');
    expect(net.calls.filter((c) => c.path === API_PATHS.refresh)).toHaveLength(1);
  });

  it('queues concurrent 401s behind one refresh', async () => {
    let refreshed = false;
    let releaseRefresh!: () => void;
    const refreshGate = new Promise<void>((resolve) => (releaseRefresh = resolve));
    const net = scriptedFetch(async (path) => {
      if (path === API_PATHS.refresh) {
        await refreshGate;
        refreshed = true;
        return json(200, {});
      }
      return refreshed ? json(200, { path }) : json(401, {});
    });
    const client = createApiClient({ fetch: net.fetch });
    const calls = [client.get('/a'), client.get('/b'), client.get('/c')];
    await vi.waitFor(() => expect(net.calls.filter((c) => c.path === API_PATHS.refresh)).toHaveLength(1));
    releaseRefresh();
    await expect(Promise.all(calls)).resolves.toEqual([{ path: '/a' }, { path: '/b' }, { path: '/c' }]);
    expect(net.calls.filter((c) => c.path === API_PATHS.refresh)).toHaveLength(1);
  });

  it("a failed refresh sends the user away and raises 'Unauthorized - please log in again'", async () => {
    const onUnauthorized = vi.fn();
    const net = scriptedFetch((path) => (path === API_PATHS.refresh ? json(500, {}) : json(401, {})));
    const client = createApiClient({ fetch: net.fetch, onUnauthorized });
    await expect(client.get('/api/v1/auth/me')).rejects.toThrow(UNAUTHORIZED_MESSAGE);
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('a refresh that fails after a new sign-in does not send the new user away', async () => {
    const onUnauthorized = vi.fn();
    let failRefresh!: () => void;
    const net = scriptedFetch((path) => {
      if (path !== API_PATHS.refresh) return json(401, {});
      return new Promise<Response>((resolve) => (failRefresh = () => resolve(json(401, {}))));
    });
    const client = createApiClient({ fetch: net.fetch, onUnauthorized });
    // A signed-out page asks who is there; its refresh is still out when the sign-in completes.
    const stale = client.get(API_PATHS.me);
    await vi.waitFor(() => expect(net.calls.map((c) => c.path)).toContain(API_PATHS.refresh));
    client.signedIn();
    failRefresh();
    await expect(stale).rejects.toThrow(UNAUTHORIZED_MESSAGE);
    expect(onUnauthorized).not.toHaveBeenCalled();
    // A refusal of the new session itself still signs out.
    net.calls.length = 0;
    const fresh = client.get(API_PATHS.me);
    await vi.waitFor(() => expect(net.calls.map((c) => c.path)).toContain(API_PATHS.refresh));
    failRefresh();
    await expect(fresh).rejects.toThrow(UNAUTHORIZED_MESSAGE);
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('a 401 on the refresh call itself does not refresh again', async () => {
    const onUnauthorized = vi.fn();
    const net = scriptedFetch(() => json(401, {}));
    const client = createApiClient({ fetch: net.fetch, onUnauthorized });
    await expect(client.post(API_PATHS.refresh)).rejects.toThrow(UNAUTHORIZED_MESSAGE);
    expect(net.calls).toHaveLength(1);
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('the campaign list refreshes once per 401: a second 401 after the retry is an error, not another refresh', async () => {
    const onUnauthorized = vi.fn();
    const net = scriptedFetch((path) => (path === API_PATHS.refresh ? json(200, {}) : json(401, {})));
    const client = createApiClient({ fetch: net.fetch, onUnauthorized });
    await expect(fetchCampaigns(client)).rejects.toThrow('HTTP error! status: 401');
    expect(net.calls.map((c) => c.path)).toEqual([API_PATHS.campaigns, API_PATHS.refresh, API_PATHS.campaigns]);
  });

  it('the campaign list is retried once after a refresh on 401', async () => {
    let listCalls = 0;
    const net = scriptedFetch((path) => {
      if (path === API_PATHS.refresh) return json(200, {});
      listCalls += 1;
      return listCalls === 1 ? json(401, {}) : json(200, { data: [{ id: 'c1' }] });
    });
    const client = createApiClient({ fetch: net.fetch });
    await expect(fetchCampaigns(client)).resolves.toEqual([{ id: 'c1' }]);
    expect(net.calls.filter((c) => c.path === API_PATHS.refresh)).toHaveLength(1);
  });
});
