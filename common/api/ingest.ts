import { Type, type Static } from 'typebox';

/** POST /api/v1/ingest/{campaignId}: the body is raw bytes (gzip or JSON), checked by ingest-batch.ts. */
export const IngestParams = Type.Object({ campaignId: Type.String({ maxLength: 64 }) });

/** false: the batch was stored before (a retry), so nothing was written. */
/** `console: false` (with status 202) tells the tracker the campaign does not capture console messages. */
export const IngestResponse = Type.Object({ stored: Type.Boolean(), console: Type.Optional(Type.Literal(false)) });
export type IngestResponse = Static<typeof IngestResponse>;

/** GET /t/{campaignId}.js: the hosted one-line install. */
export const LoaderParams = Type.Object({ file: Type.String() });
