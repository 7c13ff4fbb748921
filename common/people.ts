// Who the visitor is and what they did, as the page tells the recorder (tapedeck.identify,
// .event, .tag): the custom-event tags they travel under in the recording, their bounds, and the
// session facts they fold into. Shared by the tracker, the ingest schema and the session facts.

export const PEOPLE_TAGS = {
  identify: 'tapedeck/identify',
  event: 'tapedeck/event',
  tag: 'tapedeck/tag',
} as const;

/** An id, an event name, a tag's key and value, a trait's key and text value: at most this many characters. */
export const NAME_MAX = 200;
/** People on a page of the campaign's people directory. */
export const PEOPLE_PAGE = 50;
/** The directory's search: an id's start, `key=value` (each at most NAME_MAX), or a trait's value. */
export const PEOPLE_SEARCH_MAX = 2 * NAME_MAX + 1;
/** Traits of an identify call, props of an event, and tags or traits kept on a session: at most this many. */
export const FIELDS_MAX = 50;
/** Events a page may send in a minute. */
export const EVENTS_PER_MINUTE = 100;
/** Distinct event names kept on a session (their counts go on). */
export const EVENT_NAMES_MAX = 100;

/** A trait's or prop's value: scalars only, so a page cannot send its state. */
export type Scalar = string | number | boolean | null;
export type Fields = Record<string, Scalar>;

// Payloads (bounded by the ingest schema, common/ingest-batch.ts):
// - identify: {userId, traits?}
// - event: {name, props?}
// - tag: {key, value}

/** What the people facts of a session hold: the last id, merged traits and tags, events with counts. */
export interface PeopleFacts {
  userId: string | null;
  traits: Fields;
  events: Record<string, number>;
  tags: Record<string, string>;
}

export const emptyPeople = (): PeopleFacts => ({ userId: null, traits: {}, events: {}, tags: {} });

/** `key:value` as the list filters take it (the first colon splits; a key has none). */
export function splitPair(text: string): [string, string] | null {
  const at = text.indexOf(':');
  return at > 0 ? [text.slice(0, at).trim(), text.slice(at + 1).trim()] : null;
}

/** A JSON object column read back defensively: anything else is empty. */
export function readObject<T>(json: string | null | undefined): Record<string, T> {
  if (!json) return {};
  try {
    const value: unknown = JSON.parse(json);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, T>) : {};
  } catch {
    return {};
  }
}

/** Adds `key` to a bounded record: an existing key is always updated, a new one only under `max`. */
export function boundedSet<T>(record: Record<string, T>, key: string, value: T, max = FIELDS_MAX): Record<string, T> {
  if (!Object.hasOwn(record, key) && Object.keys(record).length >= max) return record;
  return { ...record, [key]: value };
}

const isScalar = (value: unknown) =>
  value === null ||
  typeof value === 'boolean' ||
  (typeof value === 'number' && Number.isFinite(value)) ||
  (typeof value === 'string' && value.length <= NAME_MAX);

/** A name: text of 1 to NAME_MAX characters. */
export const isName = (value: unknown): value is string => typeof value === 'string' && value.length > 0 && value.length <= NAME_MAX;

/** Traits or props: absent, or a plain object of at most FIELDS_MAX named scalars. */
export function fieldsOk(value: unknown): boolean {
  if (value === undefined) return true;
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  const entries = Object.entries(value);
  return entries.length <= FIELDS_MAX && entries.every(([key, field]) => isName(key) && isScalar(field));
}

/** Whether a people payload (by its tag) is within the bounds: ingest refuses a batch with one that is not. */
export function peoplePayloadOk(tag: string, payload: unknown): boolean {
  const p = (payload ?? {}) as Record<string, unknown>;
  const keys = (...allowed: string[]) => typeof payload === 'object' && payload !== null && Object.keys(p).every((key) => allowed.includes(key));
  if (tag === PEOPLE_TAGS.identify) return keys('userId', 'traits') && isName(p.userId) && fieldsOk(p.traits);
  if (tag === PEOPLE_TAGS.event) return keys('name', 'props') && isName(p.name) && fieldsOk(p.props);
  if (tag === PEOPLE_TAGS.tag) return keys('key', 'value') && isName(p.key) && typeof p.value === 'string' && p.value.length <= NAME_MAX;
  return true;
}

/** Calls queued before the recorder loads: a page stuck without it keeps no more. */
export const QUEUE_MAX = 100;

/**
 * The one-line stub a page may run before the tag (docs/ingest.md shows it): calls to the
 * API are then safe anywhere, queued for the recorder, as the loader's own stub queues them.
 */
export const PAGE_STUB =
  'window.tapedeck=window.tapedeck||{q:[]};"identify event tag consent stop start".split(" ").forEach(function(m){var t=window.tapedeck;t[m]=t[m]||function(){t.q.length<100&&t.q.push([m].concat([].slice.call(arguments)))}});';
