// What the sign-in provider hands the PWA's callback page, as plain bounds: the callback page's URL
// holds to them on the first page load (no TypeBox bundled there), common/api/auth.ts's
// CallbackBody builds its schema from them.

/** Longest code, state and issuer the callback takes. */
export const CALLBACK_MAX_CHARS = { code: 4096, state: 512, iss: 2048 } as const;
