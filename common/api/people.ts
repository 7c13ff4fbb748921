import { Type, type Static } from 'typebox';
import { Session } from './sessions.js';
import { NAME_MAX } from '../people.js';

// A person: the sessions a page identified by one id (tapedeck.identify), with what they told.
// GET /api/v1/people/{campaignId}/{userId}[?download=true] answers them (as a file with
// download=true: a data-subject access export); DELETE erases them.

/** The sessions a person's page answers (newest first); a person with more is answered truncated. */
export const PERSON_SESSIONS_MAX = 1000;
/** Sessions erased per transaction: an erasure never holds the database for long. */
export const ERASE_BATCH = 100;
export const PERSON_NOT_FOUND = 'No sessions of this person';

export const PersonParams = Type.Object({ campaignId: Type.String({ maxLength: 64 }), userId: Type.String({ minLength: 1, maxLength: NAME_MAX }) });
export const PersonQuery = Type.Object({ download: Type.Optional(Type.Literal('true')) }, { additionalProperties: false });

export const Person = Type.Object({
  userId: Type.String(),
  /** Traits of all the person's sessions, merged (the newest session's value wins). */
  traits: Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()])),
  tags: Type.Record(Type.String(), Type.String()),
  /** Event names with their counts over all the person's sessions. */
  events: Type.Record(Type.String(), Type.Number()),
  sessions: Type.Array(Session),
  /** More than PERSON_SESSIONS_MAX sessions: the oldest are left out. */
  truncated: Type.Boolean(),
});
export type Person = Static<typeof Person>;

export const Erased = Type.Object({ erased: Type.Number() });
export type Erased = Static<typeof Erased>;
