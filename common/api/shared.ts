import { Type, type Static } from 'typebox';
import { MADE_ID_PATTERN } from '../ids.js';

/** Every 4xx (and the 5xx that have a reason to give) answers {error}. */
export const ApiError = Type.Object({ error: Type.String() });
export type ApiError = Static<typeof ApiError>;

/** The answer of calls that only report success. */
export const Ok = Type.Object({ ok: Type.Literal(true) });
export type Ok = Static<typeof Ok>;

/** An id the server made (a campaign's, funnel's, segment's, note's: a UUID), in a path or a filter. */
export const MadeId = () => Type.String({ maxLength: 36, pattern: MADE_ID_PATTERN });

export const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);
