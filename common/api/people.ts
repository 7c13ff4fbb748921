import { Type, type Static } from 'typebox';
import { Session } from './sessions.js';
import { NAME_MAX, PEOPLE_SEARCH_MAX } from '../people.js';

export { PEOPLE_PAGE } from '../people.js';

// A person: the sessions a page identified by one id (tapedeck.identify), with what they told.
// GET /api/v1/people/{campaignId}/{userId}[?download=true] answers them (as a file with
// download=true: a data-subject access export); DELETE erases them. GET
// /api/v1/people/{campaignId}/?q=&cursor= answers the campaign's people directory, a page at a time.

/** The sessions a person's page answers (newest first); a person with more is answered truncated. */
export const PERSON_SESSIONS_MAX = 1000;
/** Sessions erased per transaction: an erasure never holds the database for long. */
export const ERASE_BATCH = 100;
export const PERSON_NOT_FOUND = 'No sessions of this person';

export const PersonParams = Type.Object({ campaignId: Type.String({ maxLength: 64 }), userId: Type.String({ minLength: 1, maxLength: NAME_MAX }) });
export const PersonQuery = Type.Object({ download: Type.Optional(Type.Literal('true')) }, { additionalProperties: false });

const Traits = Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]));

export const Person = Type.Object({
  userId: Type.String(),
  /** Traits of all the person's sessions, merged (the newest session's value wins). */
  traits: Traits,
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

/** A cursor is the last id of a page, base64url: at most 4 bytes a character. */
const CURSOR_MAX = Math.ceil((NAME_MAX * 4 * 4) / 3);

export const PeopleParams = Type.Object({ campaignId: Type.String({ maxLength: 64 }) });
export const PeopleQuery = Type.Object(
  { q: Type.Optional(Type.String({ maxLength: PEOPLE_SEARCH_MAX })), cursor: Type.Optional(Type.String({ maxLength: CURSOR_MAX })) },
  { additionalProperties: false },
);
export type PeopleQuery = Static<typeof PeopleQuery>;

/** A person as the directory lists them: when first and last seen, how often, on what, and who they said they were. */
export const PersonSummary = Type.Object({
  userId: Type.String(),
  /** The start of their first session and the last activity of their latest, epoch ms. */
  firstSeen: Type.Number(),
  lastSeen: Type.Number(),
  sessions: Type.Number(),
  /** Device kinds (desktop, mobile, tablet), the most used first. */
  devices: Type.Array(Type.String()),
  /** The traits of their newest session that has any. */
  traits: Traits,
});
export type PersonSummary = Static<typeof PersonSummary>;

/** A directory page, people in the order of their ids; nextCursor asks for the next page (null: none). */
export const PeoplePage = Type.Object({ people: Type.Array(PersonSummary), nextCursor: Type.Union([Type.String(), Type.Null()]) });
export type PeoplePage = Static<typeof PeoplePage>;
