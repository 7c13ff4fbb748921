import type { CampaignForm, CampaignFormErrors } from '../lib/createForm.js';
import { Field } from '../components/FormField.js';

// The campaign form's recording rules: what the tracker records on the site and what is kept of it.

interface RecordingRulesProps {
  form: CampaignForm;
  errors: CampaignFormErrors;
  sending: boolean;
  set: <K extends keyof CampaignForm>(field: K, value: CampaignForm[K]) => void;
}

export function RecordingRulesFields({ form, errors, sending, set }: RecordingRulesProps) {
  return (
    <>
      <div className="field">
        <label className="checkbox" htmlFor="campaign-keepQuery">
          <input
            id="campaign-keepQuery"
            type="checkbox"
            aria-describedby="campaign-keepQuery-help"
            checked={form.keepQuery}
            disabled={sending}
            onChange={(e) => set('keepQuery', e.target.checked)}
          />{' '}
          Keep query strings in page addresses
        </label>
        <p className="help" id="campaign-keepQuery-help">
          Off: recordings keep each page's path only (/search). On: also its query string (/search?q=shoes), with the values of the parameters below masked.
          Fragments (#…) are never kept, and share links without session details show paths only.
        </p>
      </div>
      <Field
        id="campaign-maskedParams"
        label="Masked Parameters"
        help="Comma-separated parameter names whose values are replaced by * when query strings are kept, whatever their case."
        error={errors.maskedParams}
      >
        <input
          id="campaign-maskedParams"
          className="input"
          type="text"
          value={form.maskedParams}
          disabled={sending}
          onChange={(e) => set('maskedParams', e.target.value)}
        />
      </Field>
    </>
  );
}
