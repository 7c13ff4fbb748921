import { API_PATHS } from './paths.js';
import { OfflineWriteError, assertOnlineForWrite, isNetworkError } from '../offline/network.js';

// The fetch client: cookies on every call, JSON bodies, 'HTTP error! status: {code}' for any non-OK
// answer, and the 401 rule, kept in request() alone so no caller can add a second refresh: one
// refresh (shared by every call, and every tab, that hit a 401 at the same time), then one retry; a
// refresh that fails sends the user away and raises UNAUTHORIZED_MESSAGE.

export const UNAUTHORIZED_MESSAGE = 'Unauthorized - please log in again';

/** A non-OK answer. Keeps the status and the parsed body (servers answer {error}). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly statusText: string,
    readonly body: unknown,
  ) {
    super(`HTTP error! status: ${status}`);
    this.name = 'HttpError';
  }

  /** The server's {error} text, when it sent one. */
  get serverMessage(): string | undefined {
    const body = this.body as { error?: unknown } | null;
    return body && typeof body.error === 'string' ? body.error : undefined;
  }
}

/** Raised when the session cannot be refreshed: the user must sign in again. */
export class UnauthorizedError extends Error {
  constructor() {
    super(UNAUTHORIZED_MESSAGE);
    this.name = 'UnauthorizedError';
  }
}

export interface ApiClientOptions {
  /** Backend origin; '' means the page's own origin. */
  baseUrl?: string;
  fetch?: typeof fetch;
  /** Called when a refresh fails; the app sends the user to / (unless already there). */
  onUnauthorized?: () => void;
}

export type ApiClient = ReturnType<typeof createApiClient>;

/** Held by the tab that refreshes; the others wait, then find the cookies already fresh. */
export const REFRESH_LOCK = 'tapedeck-refresh';
/** When a tab of this origin last refreshed the session (epoch ms), for the tabs that waited on it. */
export const REFRESHED_AT_KEY = 'tapedeck-refreshed-at';

function lastRefresh(): number {
  try {
    return Number(localStorage.getItem(REFRESHED_AT_KEY)) || 0;
  } catch {
    return 0;
  }
}

function noteRefresh(): void {
  try {
    localStorage.setItem(REFRESHED_AT_KEY, String(Date.now()));
  } catch {
    // Storage off: other tabs then refresh once more, which the server's grace window allows.
  }
}

/**
 * Tabs share cookies, so one refresh serves them all: the refresh runs under a Web Lock, and a tab
 * that waited behind another's refresh skips its own. Without Web Locks, every tab refreshes.
 */
async function refreshAcrossTabs(refreshNow: () => Promise<void>): Promise<void> {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  if (!locks) return refreshNow();
  const asked = Date.now();
  await locks.request(REFRESH_LOCK, async () => {
    if (lastRefresh() >= asked) return;
    await refreshNow();
    noteRefresh();
  });
}

function defaultOnUnauthorized(): void {
  if (typeof window !== 'undefined' && window.location.pathname !== '/') window.location.assign('/');
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => '');
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export function createApiClient(options: ApiClientOptions = {}) {
  const baseUrl = options.baseUrl ?? '';
  let onUnauthorized = options.onUnauthorized ?? defaultOnUnauthorized;
  let refreshInFlight: Promise<void> | null = null;
  // Bumped by each sign-in: a call started before it that ends in a failed refresh was refused
  // for the old (signed-out) state, so it must not sign out the user who has just arrived.
  let signInCount = 0;

  const doFetch = (path: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    if (init.body !== undefined && !headers.has('Content-Type')) headers.set('Content-Type', 'application/json');
    if (!headers.has('Accept')) headers.set('Accept', 'application/json');
    const fetchFn = options.fetch ?? globalThis.fetch.bind(globalThis);
    return fetchFn(baseUrl + path, { ...init, headers, credentials: 'include' });
  };

  /** Writes are refused offline with a clear message, never queued unseen (offline layer). */
  const isWrite = (path: string, init: RequestInit) => path !== API_PATHS.refresh && !['GET', 'HEAD'].includes((init.method ?? 'GET').toUpperCase());
  async function sendWrite(path: string, init: RequestInit): Promise<Response> {
    assertOnlineForWrite();
    try {
      return await doFetch(path, init);
    } catch (error) {
      throw isNetworkError(error) ? new OfflineWriteError() : error;
    }
  }

  function unauthorized(startedAt: number): never {
    if (startedAt === signInCount) onUnauthorized();
    throw new UnauthorizedError();
  }

  async function refreshNow(): Promise<void> {
    const response = await doFetch(API_PATHS.refresh, { method: 'POST' });
    if (!response.ok) throw new HttpError(response.status, response.statusText, await readBody(response));
  }

  /** One refresh at a time: every caller that hit a 401 waits on the same one. */
  function refresh(): Promise<void> {
    refreshInFlight ??= refreshAcrossTabs(refreshNow).finally(() => {
      refreshInFlight = null;
    });
    return refreshInFlight;
  }

  /** The raw answer, after the 401 rule. Non-OK answers other than 401 are returned as they are. */
  async function request(path: string, init: RequestInit = {}): Promise<Response> {
    const startedAt = signInCount;
    const response = isWrite(path, init) ? await sendWrite(path, init) : await doFetch(path, init);
    if (response.status !== 401) return response;
    if (path === API_PATHS.refresh) unauthorized(startedAt);
    try {
      await refresh();
    } catch (error) {
      // No network for the refresh is not a refusal: the call fails as any offline one does.
      if (isNetworkError(error)) throw error;
      unauthorized(startedAt);
    }
    return doFetch(path, init);
  }

  /** JSON answer, or HttpError('HTTP error! status: {code}'). */
  async function json<T>(path: string, init: RequestInit = {}): Promise<T> {
    const response = await request(path, init);
    const body = await readBody(response);
    if (!response.ok) throw new HttpError(response.status, response.statusText, body);
    return body as T;
  }

  const withBody = (method: string, body?: unknown): RequestInit => (body === undefined ? { method } : { method, body: JSON.stringify(body) });

  return {
    request,
    json,
    refresh,
    get: <T>(path: string, init?: RequestInit) => json<T>(path, { ...init, method: 'GET' }),
    post: <T>(path: string, body?: unknown) => json<T>(path, withBody('POST', body)),
    put: <T>(path: string, body?: unknown) => json<T>(path, withBody('PUT', body)),
    patch: <T>(path: string, body?: unknown) => json<T>(path, withBody('PATCH', body)),
    delete: <T>(path: string, body?: unknown) => json<T>(path, withBody('DELETE', body)),
    /** A sign-in has just set new cookies: failures of calls made before it no longer sign out. */
    signedIn() {
      signInCount += 1;
    },
    setUnauthorizedHandler(handler: () => void) {
      onUnauthorized = handler;
    },
  };
}

/** The app's client: same origin as the page. */
export const api = createApiClient();
