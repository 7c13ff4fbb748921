import { DEFAULT_MASKED_PARAMS } from '../../common/recording-rules.js';

/** A new campaign's recording rules, as the API answers them when the create body left them out. */
export const DEFAULT_RULES = {
  keep_query: false,
  masked_params: DEFAULT_MASKED_PARAMS,
  sample_rate: 100,
  min_duration_ms: 0,
  url_include: [],
  url_exclude: [],
  block_selector: '',
  privacy: 'balanced',
  consent: 'none',
  consent_buffer_seconds: 0,
};
