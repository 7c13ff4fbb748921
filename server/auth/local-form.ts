import { SHORT_PASSWORD } from './local-accounts.js';
import { escapeHtml } from '../http/html.js';

/**
 * The built-in provider's one page: a plain form asking for an email and a password (and a name
 * the first time). It runs no script (its CSP allows none): the password's length is checked by
 * the browser (minlength), and CSS shows the server's own words for it once the field is left short.
 */

export interface FormState {
  action: string;
  name?: string;
  email?: string;
  error?: string;
  /** Whether a new email may make its account here (SIGNUP=open). */
  signupOpen: boolean;
  minPasswordLength: number;
}

export function signInForm({ action, name = '', email = '', error, signupOpen, minPasswordLength }: FormState): string {
  const hint = signupOpen
    ? `First time here? Your name, email and a password of at least ${minPasswordLength} characters make your account.`
    : 'Sign in with the account the administrator of this server made for you.';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in to Tapedeck</title>
<style>
  * { box-sizing: border-box; }
  body { font-family: system-ui, sans-serif; background: #f4f4f5; color: #18181b; margin: 0; }
  /* The card fits any screen from 320 px up: its width includes its padding, and the page keeps a margin. */
  main { display: grid; place-items: center; min-height: 100vh; padding: 1rem; }
  form { background: #fff; padding: clamp(1.25rem, 5vw, 2rem); border-radius: 12px; box-shadow: 0 1px 4px rgb(0 0 0 / 0.1); width: 100%; max-width: 24rem; display: grid; gap: 0.75rem; }
  h1 { font-size: 1.25rem; margin: 0 0 0.25rem; }
  p { margin: 0; color: #52525b; font-size: 0.9rem; }
  label { display: grid; gap: 0.25rem; font-weight: 600; font-size: 0.9rem; }
  input { font: inherit; font-weight: 400; padding: 0.5rem; border: 1px solid #8a8a94; border-radius: 6px; width: 100%; min-height: 44px; }
  button { font: inherit; font-weight: 600; padding: 0.6rem; border: 0; border-radius: 6px; background: #2563eb; color: #fff; cursor: pointer; min-height: 44px; }
  :focus-visible { outline: 3px solid #b45309; outline-offset: 2px; }
  .error { color: #b91c1c; }
  .own-accounts { background: #eff6ff; color: #1e3a8a; border-radius: 6px; padding: 0.6rem 0.75rem; }
  .password-rule { display: none; color: #b91c1c; font-weight: 600; }
  form:has(input[name="password"]:user-invalid) .password-rule { display: block; }
</style>
</head>
<body>
<main>
<form method="post" action="${escapeHtml(action)}">
  <h1>Sign in to Tapedeck</h1>
  <p class="own-accounts">This server uses its own accounts (Google sign-in is not configured on this server). Your email and password are checked here, by this server, and go nowhere else.</p>
  <p>${escapeHtml(hint)}</p>
  ${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
  ${signupOpen ? `<label>Name (first sign-in only) <input name="name" autocomplete="name" maxlength="100" value="${escapeHtml(name)}" autofocus></label>` : ''}
  <label>Email <input name="email" type="email" autocomplete="email" required maxlength="254" value="${escapeHtml(email)}"${signupOpen ? '' : ' autofocus'}></label>
  <label>Password <input name="password" type="password" autocomplete="current-password" required minlength="${minPasswordLength}" maxlength="1024" aria-describedby="password-rule"></label>
  <p class="password-rule" id="password-rule" role="alert">${escapeHtml(SHORT_PASSWORD)}</p>
  <button type="submit">Sign in</button>
</form>
</main>
</body>
</html>`;
}

export function expiredPage(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sign-in expired</title></head>
<body><main><p>This sign-in has expired or was already used. Go back to Tapedeck and sign in again.</p></main></body></html>`;
}
