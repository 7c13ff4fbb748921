import { Type, type Static } from 'typebox';
import { Compile } from 'typebox/compile';
import { EventType } from '@rrweb/types';
import { MAX_SEQ } from './limits.js';
import { CAPTURED_TAGS, MESSAGE_MAX, STACK_MAX } from './captured.js';
import { CLICK_TEXT_MAX, MAX_PAGE_PX, PATH_MAX, SELECTOR_MAX } from './heatmaps.js';
import { annotationAt, fieldName } from './schema-flaw.js';
import { peoplePayloadOk, PEOPLE_TAGS } from './people.js';
import { UTM_MAX } from './utm.js';

// The one schema of an ingest batch as the tracker sends it. Each node may carry `reason`: the
// text a refusal gives when that node is what failed, so the tracker's author reads a sentence,
// not a JSON-schema keyword.

const text = (maxLength: number) => Type.String({ maxLength, reason: `must be text of at most ${maxLength} characters` });
const flag = () => Type.Boolean({ reason: 'must be true or false' });
/** A share of an element's box, 0 to 1. */
const share = Type.Number({ minimum: 0, maximum: 1, reason: 'must be a number from 0 to 1' });
const whole = (maximum: number) => Type.Integer({ minimum: 0, maximum, reason: `must be a whole number from 0 to ${maximum}` });

/** rrweb's own event types, the newer Asset and Annotation included. */
const EVENT_TYPES = Object.values(EventType).filter((v): v is number => typeof v === 'number');
const MAX_EVENT_TYPE = Math.max(...EVENT_TYPES);

export const SessionInfoSchema = Type.Object(
  {
    userAgent: text(2000),
    language: text(100),
    timezone: text(100),
    hardwareConcurrency: whole(1024),
    webdriver: flag(),
    cookiesEnabled: flag(),
    hasFocus: flag(),
    fullScreenEnabled: flag(),
    screenWidth: Type.Optional(whole(100_000)),
    screenHeight: Type.Optional(whole(100_000)),
    referrer: Type.Optional(text(8000)),
    url: Type.Optional(text(8000)),
    utmSource: Type.Optional(text(UTM_MAX)),
    utmMedium: Type.Optional(text(UTM_MAX)),
    utmCampaign: Type.Optional(text(UTM_MAX)),
  },
  { reason: "must be an object with the visit's details" },
);

export const EventSchema = Type.Object(
  {
    type: Type.Integer({ minimum: 0, maximum: MAX_EVENT_TYPE, reason: `must be an rrweb event type (0 to ${MAX_EVENT_TYPE})` }),
    data: Type.Object({}, { reason: 'must be an object' }),
    timestamp: Type.Integer({ minimum: 0, reason: 'must be a whole number of milliseconds' }),
  },
  { reason: 'must be an object' },
);

export const BatchSchema = Type.Object(
  {
    sessionId: Type.String({ pattern: '^[A-Za-z0-9_-]{8,64}$', reason: 'must be 8 to 64 letters, digits, "-" or "_"' }),
    seq: Type.Integer({ minimum: 0, maximum: MAX_SEQ, reason: `must be a whole number from 0 to ${MAX_SEQ}` }),
    info: Type.Optional(Type.Union([SessionInfoSchema, Type.Null()], { reason: "must be an object with the visit's details" })),
    events: Type.Array(EventSchema, { minItems: 1, reason: 'must be a non-empty array' }),
  },
  { reason: 'must be a JSON object' },
);

/**
 * What the tracker captures (common/captured.ts) travels as rrweb custom events; each tag's
 * payload is bounded, so an error or a request cannot carry a page's worth of data.
 */
const CAPTURED_PAYLOADS = {
  [CAPTURED_TAGS.error]: Type.Object({ message: text(MESSAGE_MAX), source: text(MESSAGE_MAX), stack: text(STACK_MAX) }, { additionalProperties: false }),
  [CAPTURED_TAGS.console]: Type.Object(
    { level: Type.Union([Type.Literal('error'), Type.Literal('warn')]), message: text(MESSAGE_MAX) },
    { additionalProperties: false },
  ),
  [CAPTURED_TAGS.request]: Type.Object(
    { method: text(20), url: text(MESSAGE_MAX), status: whole(999), durationMs: whole(MAX_SEQ) },
    { additionalProperties: false },
  ),
  [CAPTURED_TAGS.click]: Type.Object(
    {
      p: text(PATH_MAX),
      s: text(SELECTOR_MAX),
      t: text(CLICK_TEXT_MAX),
      fx: share,
      fy: share,
      x: whole(MAX_PAGE_PX),
      y: whole(MAX_PAGE_PX),
      w: whole(MAX_PAGE_PX),
      h: whole(MAX_PAGE_PX),
    },
    { additionalProperties: false },
  ),
  [CAPTURED_TAGS.scroll]: Type.Object(
    { p: text(PATH_MAX), d: whole(100), w: whole(MAX_PAGE_PX), h: whole(MAX_PAGE_PX), v: Type.Optional(Type.Literal(1)) },
    { additionalProperties: false },
  ),
  [CAPTURED_TAGS.hidden]: Type.Object({}, { additionalProperties: false }),
};
const capturedCheckers = Object.fromEntries(Object.entries(CAPTURED_PAYLOADS).map(([tag, schema]) => [tag, Compile(schema)]));
const CUSTOM = EventType.Custom;
const PEOPLE_NAMES = new Set<unknown>(Object.values(PEOPLE_TAGS));

/** Null when every captured event's payload has its tag's shape, else which one does not. */
function capturedFlaw(events: { type: number; data: object }[]): string | null {
  for (let i = 0; i < events.length; i++) {
    if (events[i].type !== CUSTOM) continue;
    const data = events[i].data as { tag?: unknown; payload?: unknown };
    const checker = typeof data.tag === 'string' && Object.hasOwn(capturedCheckers, data.tag) ? capturedCheckers[data.tag] : undefined;
    if (checker && !checker.Check(data.payload)) return `events[${i}].data.payload is not a well-formed ${data.tag} event`;
    if (PEOPLE_NAMES.has(data.tag) && !peoplePayloadOk(data.tag as string, data.payload))
      return `events[${i}].data.payload is not a well-formed ${data.tag} event`;
  }
  return null;
}

export type BatchBody = Static<typeof BatchSchema>;
export type SessionInfoBody = Static<typeof SessionInfoSchema>;

const checker = Compile(BatchSchema);

/**
 * Null when the value is a well-formed batch, else the reason for the first flaw found, naming
 * the field ("events[0].type must be an rrweb event type (0 to 8)").
 */
export function batchFlaw(value: unknown): string | null {
  if (checker.Check(value)) return capturedFlaw((value as BatchBody).events);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'The batch must be a JSON object';
  const [first] = [...checker.Errors(value)];
  if (!first) return 'The batch is not well formed';
  // An error about a missing property points at the object; name the property instead.
  const missing = (first.params as { requiredProperties?: string[] }).requiredProperties?.[0];
  const pointer = missing ? `${first.instancePath}/${missing}` : first.instancePath;
  const schemaPath = missing ? `${first.schemaPath}/properties/${missing}` : first.schemaPath;
  return `${fieldName(pointer)} ${annotationAt(BatchSchema, schemaPath) ?? first.message}`;
}
