import { Type, type Static } from 'typebox';
import { Nullable } from './shared.js';

/** GET /api/v1/config: what the PWA shows about this server before anyone signs in. */
export const SiteConfig = Type.Object({
  /** The owner's contact address (CONTACT_EMAIL), or null: then the app shows none. */
  contactEmail: Nullable(Type.String()),
});
export type SiteConfig = Static<typeof SiteConfig>;
