import { DEFAULT_MASKED_PARAMS } from '../../common/recording-rules.js';

/** A new campaign's recording rules, as the API answers them when the create body left them out. */
export const DEFAULT_RULES = {
  keep_query: false,
  masked_params: DEFAULT_MASKED_PARAMS,
};
