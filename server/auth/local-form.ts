/** The built-in provider's one page: a plain form asking for a name and an email. */

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

export interface FormState {
  action: string;
  name?: string;
  email?: string;
  error?: string;
}

export function signInForm({ action, name = '', email = '', error }: FormState): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in to Tapedeck</title>
<style>
  body { font-family: system-ui, sans-serif; background: #f4f4f5; color: #18181b; display: grid; place-items: center; min-height: 100vh; margin: 0; }
  form { background: #fff; padding: 2rem; border-radius: 12px; box-shadow: 0 1px 4px rgb(0 0 0 / 0.1); width: min(22rem, 90vw); display: grid; gap: 0.75rem; }
  h1 { font-size: 1.25rem; margin: 0 0 0.25rem; }
  p { margin: 0; color: #52525b; font-size: 0.9rem; }
  label { display: grid; gap: 0.25rem; font-weight: 600; font-size: 0.9rem; }
  input { font: inherit; font-weight: 400; padding: 0.5rem; border: 1px solid #d4d4d8; border-radius: 6px; }
  button { font: inherit; font-weight: 600; padding: 0.6rem; border: 0; border-radius: 6px; background: #2563eb; color: #fff; cursor: pointer; }
  .error { color: #b91c1c; }
</style>
</head>
<body>
<form method="post" action="${escapeHtml(action)}">
  <h1>Sign in to Tapedeck</h1>
  <p>Built-in sign-in for this server: enter the name and email to use.</p>
  ${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
  <label>Name <input name="name" autocomplete="name" required maxlength="100" value="${escapeHtml(name)}" autofocus></label>
  <label>Email <input name="email" type="email" autocomplete="email" required maxlength="254" value="${escapeHtml(email)}"></label>
  <button type="submit">Sign in</button>
</form>
</body>
</html>`;
}

export function expiredPage(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sign-in expired</title></head>
<body><p>This sign-in has expired or was already used. Go back to Tapedeck and sign in again.</p></body></html>`;
}
