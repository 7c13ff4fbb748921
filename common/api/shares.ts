import { Type, type Static } from 'typebox';
import type { Session } from './sessions.js';
import type { ReplayEvent } from './replay.js';

/** How long a share link opens its replay. */
export const ShareExpiry = Type.Union([Type.Literal('1h'), Type.Literal('24h'), Type.Literal('7d')]);
export type ShareExpiry = Static<typeof ShareExpiry>;

export const CreateShareBody = Type.Object({ expiresIn: ShareExpiry, includeDetails: Type.Optional(Type.Boolean()) }, { additionalProperties: false });
export type CreateShareBody = Static<typeof CreateShareBody>;

/** A new link: the only time its token is shown (the server keeps only its hash). */
export const CreatedShare = Type.Object({ url: Type.String(), token: Type.String(), expiresAt: Type.Number() });
export type CreatedShare = Static<typeof CreatedShare>;

/** A listed link: `id` is its token's SHA-256 (hex), enough to revoke it, never to open it. */
export const ShareLink = Type.Object({
  id: Type.String(),
  createdAt: Type.Number(),
  expiresAt: Type.Number(),
  includeDetails: Type.Boolean(),
  revoked: Type.Boolean(),
});
export type ShareLink = Static<typeof ShareLink>;

export const ShareList = Type.Object({ links: Type.Array(ShareLink) });
export type ShareList = Static<typeof ShareList>;

/** A token is 43 characters (server/shares/repository.ts). */
export const ShareTokenParams = Type.Object({ token: Type.String({ maxLength: 64 }) });

/**
 * What a share link opens, without sign-in: the events, and the session's details only when the
 * owner ticked "include session details" (else null: no IP, no campaign data).
 */
export interface SharedReplay {
  expiresAt: number;
  complete: boolean;
  details: Session | null;
  events: ReplayEvent[];
}
