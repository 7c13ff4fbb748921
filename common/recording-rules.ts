// A campaign's recording rules as the tracker receives them, with their defaults and bounds:
// pure, shared by the campaign form, the server and the tracker (every byte here counts against
// the tracker's weight, so the tracker imports only what it uses).

/** Query parameters whose values are hidden when a campaign keeps query strings: where sites put secrets. */
export const DEFAULT_MASKED_PARAMS = [
  'token',
  'access_token',
  'id_token',
  'key',
  'api_key',
  'apikey',
  'secret',
  'password',
  'email',
  'code',
  'session',
  'sid',
  'auth',
  'signature',
  'sig',
];
export const MAX_MASKED_PARAMS = 50;
export const MAX_PARAM_NAME = 100;

/** What the tracker is told (GET /api/v1/ingest/{campaignId}); a field left out is its default. */
export interface TrackerRules {
  /** Page addresses keep their query string, these parameters (lower case) masked; absent: path only. */
  query?: string[];
}

const PARAM_NAME = /^[^\s&=#?,]{1,100}$/;
export const MASKED_PARAMS_INVALID = `Parameter names are separated by commas: at most ${MAX_MASKED_PARAMS}, each up to ${MAX_PARAM_NAME} characters without spaces, &, =, # or ?`;

/** The names of a comma-separated list, as the campaign form takes them. */
export const paramList = (text: string): string[] =>
  text
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);

/** Whether every name of a list can be matched against a query string's parameters. */
export const validParamList = (names: string[]): boolean => names.length <= MAX_MASKED_PARAMS && names.every((name) => PARAM_NAME.test(name));
