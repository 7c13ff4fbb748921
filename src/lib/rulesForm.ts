import { DEFAULT_MASKED_PARAMS, MASKED_PARAMS_INVALID, paramList, validParamList } from '../../common/recording-rules.js';
import type { Campaign, CreateCampaignPayload } from '../../common/api-types.js';

// The campaign form's recording rules: what the tracker records and what ingest keeps. Rules and
// defaults come from common/recording-rules.ts (shared with the server and the tracker).

export interface RulesForm {
  keepQuery: boolean;
  /** Comma-separated parameter names. */
  maskedParams: string;
}

/** The rules fields that can show an error. */
export type RulesFormField = 'maskedParams';

/** Each form field's name in the API's campaign. */
export const RULES_PAYLOAD_FIELDS = { keepQuery: 'keep_query', maskedParams: 'masked_params' } as const satisfies Record<
  keyof RulesForm,
  keyof CreateCampaignPayload
>;

export const newRulesForm = (): RulesForm => ({ keepQuery: false, maskedParams: DEFAULT_MASKED_PARAMS.join(', ') });

/** A stored campaign's rules (campaigns cached by older builds: the defaults). */
export const rulesForm = (campaign: Campaign): RulesForm => ({
  keepQuery: campaign.keep_query === true,
  maskedParams: (campaign.masked_params ?? DEFAULT_MASKED_PARAMS).join(', '),
});

export function validateRulesForm(form: RulesForm): Partial<Record<RulesFormField, string>> {
  return validParamList(paramList(form.maskedParams)) ? {} : { maskedParams: MASKED_PARAMS_INVALID };
}

/** The rules part of a create body, for a form that passed validateRulesForm. */
export const rulesPayload = (form: RulesForm): Pick<CreateCampaignPayload, 'keep_query' | 'masked_params'> => ({
  keep_query: form.keepQuery,
  masked_params: paramList(form.maskedParams),
});
