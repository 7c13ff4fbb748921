import { Type, type Static } from 'typebox';

/** One sign-in on one device (a refresh-token family), as the account page lists it. */
export const SignIn = Type.Object({
  id: Type.String(),
  /** Browser, OS and kind of device from the User-Agent at sign-in (common/user-agent.ts). */
  browser: Type.String(),
  os: Type.String(),
  device: Type.String(),
  signedInAt: Type.Number(),
  /** The last refresh: the device was in use then (an access token lasts 15 minutes). */
  lastUsedAt: Type.Number(),
  /** The sign-in of the request itself. */
  current: Type.Boolean(),
});
export type SignIn = Static<typeof SignIn>;

export const SignInList = Type.Object({ signIns: Type.Array(SignIn) });
export type SignInList = Static<typeof SignInList>;

export const SignInParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

/** DELETE /api/v1/account: the account's email, typed again (its name when it has no email). */
export const DeleteAccountBody = Type.Object({ confirm: Type.String({ maxLength: 320 }) }, { additionalProperties: false });
export type DeleteAccountBody = Static<typeof DeleteAccountBody>;
