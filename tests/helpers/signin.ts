import type { User } from '../../common/api-types.js';
import type { TestServer } from './server.js';

/**
 * A tiny cookie jar for one browser: cookies by name and path, as Set-Cookie left them.
 * (One server, so the domain is not tracked.)
 */
export class CookieJar {
  readonly #cookies = new Map<string, { value: string; path: string }>();

  store(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';').map((part) => part.trim());
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      const attr = (key: string) => attributes.find((a) => a.toLowerCase().startsWith(`${key}=`))?.split('=')[1];
      const path = attr('path') ?? '/';
      const maxAge = attr('max-age');
      const expires = attr('expires');
      const gone = value === '' || maxAge === '0' || (expires !== undefined && Date.parse(expires) <= Date.now());
      if (gone) this.#cookies.delete(`${path} ${name}`);
      else this.#cookies.set(`${path} ${name}`, { value, path });
    }
  }

  /** The Cookie header a browser would send to this path. */
  header(pathname = '/'): string {
    return [...this.#cookies.entries()]
      .filter(([, c]) => pathname === c.path || pathname.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`))
      .map(([key, c]) => `${key.slice(key.indexOf(' ') + 1)}=${c.value}`)
      .join('; ');
  }

  get(name: string): string | undefined {
    return [...this.#cookies.entries()].find(([key]) => key.endsWith(` ${name}`))?.[1].value;
  }
}

export interface SignedIn {
  user: User;
  /** The session cookies (td_access and td_refresh) as one Cookie header. */
  cookie: string;
  /** Headers for API calls as this user: its cookies and our own Origin. */
  headers: { cookie: string; origin: string };
  jar: CookieJar;
  /** The Set-Cookie lines of the callback answer. */
  setCookie: string[];
}

/** Where a browser reaches the app (a test server, or a proxy in front of several) and the PUBLIC_URL it was given. */
export type Reachable = Pick<TestServer, 'url'> & { config: Pick<TestServer['config'], 'publicUrl'> };

/**
 * A browser-ish client: PUBLIC_URL (which may say localhost) is reached at the test server's address.
 * `send` is how requests go out (fetch unless a test needs another client address).
 */
export function browserFetch(server: Reachable, jar: CookieJar, send: typeof fetch = fetch) {
  const publicOrigin = new URL(server.config.publicUrl).origin;
  return async (url: string, init: RequestInit = {}): Promise<Response> => {
    const absolute = new URL(url, server.config.publicUrl);
    const target = absolute.origin === publicOrigin ? server.url + absolute.pathname + absolute.search : absolute.href;
    const headers = new Headers(init.headers);
    const cookie = jar.header(absolute.pathname);
    if (cookie) headers.set('cookie', cookie);
    const response = await send(target, { ...init, headers, redirect: 'manual' });
    jar.store(response);
    return response;
  };
}

/** Who signs in through the built-in provider's form; the password is set at the first sign-in. */
export interface Person {
  name: string;
  email: string;
  password?: string;
}

/** The password test people use unless a test chooses one (at least 8 characters). */
export const TEST_PASSWORD = 'correct horse battery';

const isRedirect = (response: Response) => response.status >= 300 && response.status < 400;

function formAction(html: string): string {
  const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
  if (!action) throw new Error(`no sign-in form in the provider's page:\n${html.slice(0, 500)}`);
  return action.replace(/&amp;/g, '&');
}

/** Follows redirects until the provider sends the browser back to the PWA's callback page. */
async function followToCallback(go: ReturnType<typeof browserFetch>, response: Response, person: Person): Promise<URL> {
  let submitted = false;
  for (let hops = 0; hops < 20; hops++) {
    if (isRedirect(response)) {
      const location = new URL(response.headers.get('location') ?? '', response.url);
      if (location.pathname === '/auth/google/callback') return location;
      response = await go(location.href);
      continue;
    }
    const page = await response.text();
    if (response.status !== 200 || submitted) throw new Error(`sign-in stopped at ${response.url} (${response.status}):\n${page.slice(0, 500)}`);
    submitted = true;
    response = await go(formAction(page), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ password: TEST_PASSWORD, ...person }).toString(),
    });
  }
  throw new Error('too many redirects during sign-in');
}

export interface Authorized {
  jar: CookieJar;
  go: ReturnType<typeof browserFetch>;
  /** Where the provider sent the browser back: /auth/google/callback?code&state */
  callback: URL;
}

/** The first half of sign-in: Sign in → the provider's form → back at the callback page with a code. */
export async function authorize(server: Reachable, person: Person, login = '/api/v1/auth/google/login'): Promise<Authorized> {
  const jar = new CookieJar();
  const go = browserFetch(server, jar);
  const callback = await followToCallback(go, await go(login), person);
  return { jar, go, callback };
}

/** The second half: what the PWA's callback page sends. */
export async function postCallback(
  server: Reachable,
  { go, callback }: Authorized,
  body: Record<string, unknown> = { code: callback.searchParams.get('code'), state: callback.searchParams.get('state') },
) {
  return go('/api/v1/auth/google/callback', {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: new URL(server.config.publicUrl).origin },
    body: JSON.stringify(body),
  });
}

/**
 * Signs a person in through the REAL flow over HTTP, as a browser would: Sign in → the
 * provider's form (name, email, password) → back to /auth/google/callback?code&state → the PWA's POST of
 * {code, state} to the callback call. Needs the built-in provider (the default sign-in).
 */
export async function signIn(server: Reachable, person: Person): Promise<SignedIn> {
  const authorized = await authorize(server, person);
  const response = await postCallback(server, authorized);
  const answer = (await response.json()) as { user?: User; error?: string };
  if (response.status !== 200 || !answer.user) throw new Error(`sign-in callback answered ${response.status}: ${JSON.stringify(answer)}`);
  const { jar } = authorized;
  const cookie = ['td_access', 'td_refresh'].map((name) => `${name}=${jar.get(name)}`).join('; ');
  const origin = new URL(server.config.publicUrl).origin;
  return { user: answer.user, cookie, headers: { cookie, origin }, jar, setCookie: response.headers.getSetCookie() };
}

/**
 * Opens the built-in provider's form and posts these fields once, as typed: the provider's answer
 * (a 303 onwards when accepted, the form again with a message when not).
 */
export async function submitSignInForm(server: Reachable, fields: Record<string, string>, send: typeof fetch = fetch): Promise<Response> {
  const go = browserFetch(server, new CookieJar(), send);
  let response = await go('/api/v1/auth/google/login');
  while (isRedirect(response)) response = await go(new URL(response.headers.get('location') ?? '', response.url).href);
  const page = await response.text();
  return go(formAction(page), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
}
