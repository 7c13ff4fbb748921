import { Type, type Static } from 'typebox';
import { MadeId, Nullable } from './shared.js';
import { MAX_TIME } from '../limits.js';
import { MAX_FUNNEL_NAME, MAX_FUNNEL_STEPS, MAX_FUNNEL_WITHIN_MS, MAX_FUNNELS_PER_CAMPAIGN, MAX_STEP_CHARS } from '../funnels.js';

// Funnels: GET/POST/PATCH/DELETE /api/v1/funnels/{campaignId}[/{funnelId}] and
// GET /api/v1/funnels/{campaignId}/{funnelId}/result?from&to (rules in common/funnels.ts).

export const FUNNEL_NOT_FOUND = 'Funnel not found';
export const FUNNEL_LIMIT_REACHED = `A campaign keeps at most ${MAX_FUNNELS_PER_CAMPAIGN} funnels: delete one first`;

const text = () => Type.String({ minLength: 1, maxLength: MAX_STEP_CHARS });
/** A page visited (a path, `*` for any characters), an element clicked (its selector path or its text), or a custom event (its name). */
export const FunnelStep = Type.Union([
  Type.Object({ page: text() }, { additionalProperties: false }),
  Type.Object({ click: text() }, { additionalProperties: false }),
  Type.Object({ event: text() }, { additionalProperties: false }),
]);

const name = () => Type.String({ minLength: 1, maxLength: MAX_FUNNEL_NAME });
const steps = () => Type.Array(FunnelStep, { minItems: 1, maxItems: MAX_FUNNEL_STEPS });
const withinMs = () => Type.Integer({ minimum: 1000, maximum: MAX_FUNNEL_WITHIN_MS });

export const FunnelBody = Type.Object({ name: name(), steps: steps(), withinMs: Type.Optional(withinMs()) }, { additionalProperties: false });
export type FunnelBody = Static<typeof FunnelBody>;
export const FunnelChanges = Type.Object(
  { name: Type.Optional(name()), steps: Type.Optional(steps()), withinMs: Type.Optional(withinMs()) },
  { additionalProperties: false, minProperties: 1 },
);
export type FunnelChanges = Static<typeof FunnelChanges>;

export const FunnelsParams = Type.Object({ campaignId: Type.String({ maxLength: 64 }) });
export const FunnelParams = Type.Object({ campaignId: Type.String({ maxLength: 64 }), funnelId: MadeId() });

export const Funnel = Type.Object({
  id: Type.String(),
  name: Type.String(),
  steps: Type.Array(FunnelStep),
  withinMs: Type.Number(),
  createdAt: Type.Number(),
  updatedAt: Type.Number(),
});
export type Funnel = Static<typeof Funnel>;

export const FunnelList = Type.Object({ funnels: Type.Array(Funnel) });
export type FunnelList = Static<typeof FunnelList>;

const time = () => Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_TIME }));
export const FunnelResultQuery = Type.Object({ from: time(), to: time() }, { additionalProperties: false });

const count = () => Type.Integer({ minimum: 0 });
export const FunnelResult = Type.Object({
  from: Type.Number(),
  to: Type.Number(),
  steps: Type.Array(
    Type.Object({
      sessions: count(),
      /** Share of the sessions that entered step 1, 0 to 1. */
      conversion: Type.Number(),
      /** Sessions that did the step before but not this one. */
      droppedOff: count(),
      medianMsFromPrevious: Nullable(Type.Number()),
    }),
  ),
});
export type FunnelResult = Static<typeof FunnelResult>;
