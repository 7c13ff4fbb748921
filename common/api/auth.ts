import { Type, type Static } from 'typebox';
import { Nullable } from './shared.js';
import { CALLBACK_MAX_CHARS } from '../sign-in.js';

export const User = Type.Object({
  id: Type.String(),
  name: Type.String(),
  email: Nullable(Type.String()),
  picture: Nullable(Type.String()),
});
export type User = Static<typeof User>;

/** GET /api/v1/auth/google/login?returnTo=… : the app path to come back to after sign-in. */
export const LoginQuery = Type.Object({ returnTo: Type.Optional(Type.String({ maxLength: 2000 })) });

/** POST /api/v1/auth/google/callback: what the provider handed the PWA's callback page. */
export const CallbackBody = Type.Object(
  {
    code: Type.String({ minLength: 1, maxLength: CALLBACK_MAX_CHARS.code }),
    state: Type.Optional(Type.String({ maxLength: CALLBACK_MAX_CHARS.state })),
    iss: Type.Optional(Type.String({ maxLength: CALLBACK_MAX_CHARS.iss })),
  },
  { additionalProperties: false },
);
export type CallbackBody = Static<typeof CallbackBody>;

/** The signed-in user, and the app path sign-in started from. */
export const SignInResponse = Type.Object({ user: User, returnTo: Type.String() });
export type SignInResponse = Static<typeof SignInResponse>;

export const ValidateTokenResponse = Type.Object({ valid: Type.Boolean(), error: Type.Optional(Type.String()) });
export type ValidateTokenResponse = Static<typeof ValidateTokenResponse>;

/** The built-in provider's sign-in form page: /oidc/interaction/{uid}. */
export const InteractionParams = Type.Object({ uid: Type.String() });

/** The form as posted (form-encoded: every value is text); the page answers any problem in its own words. */
export const SignInForm = Type.Object({
  name: Type.Optional(Type.String()),
  email: Type.Optional(Type.String()),
  password: Type.Optional(Type.String()),
});
export type SignInForm = Static<typeof SignInForm>;
