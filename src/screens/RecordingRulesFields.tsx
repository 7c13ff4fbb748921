import type { CampaignForm, CampaignFormErrors } from '../lib/createForm.js';
import { CheckboxField, Choices, Field } from '../components/FormField.js';
import { MAX_BLOCK_SELECTOR, type ConsentMode, type PrivacyPreset } from '../../common/recording-rules.js';

// The campaign form's recording rules: what the tracker records on the site and what is kept of it.

const PRIVACY_LABELS: Record<PrivacyPreset, string> = {
  strict: 'Strict',
  balanced: 'Balanced',
  relaxed: 'Relaxed',
};
const CONSENT_LABELS: Record<ConsentMode, string> = { none: 'Not needed', required: 'Required' };

interface RecordingRulesProps {
  form: CampaignForm;
  errors: CampaignFormErrors;
  sending: boolean;
  set: <K extends keyof CampaignForm>(field: K, value: CampaignForm[K]) => void;
}

export function RecordingRulesFields({ form, errors, sending, set }: RecordingRulesProps) {
  const text = (field: keyof CampaignForm & keyof CampaignFormErrors, type = 'text') => (
    <input id={`campaign-${field}`} className="input" type={type} value={form[field]} disabled={sending} onChange={(e) => set(field, e.target.value)} />
  );
  const lines = (field: 'urlInclude' | 'urlExclude') => (
    <textarea id={`campaign-${field}`} className="input" rows={3} value={form[field]} disabled={sending} onChange={(e) => set(field, e.target.value)} />
  );
  const choices = <K extends 'privacy' | 'consent'>(field: K, labels: Record<CampaignForm[K], string>) => (
    <Choices
      id={`campaign-${field}`}
      options={Object.entries(labels)}
      value={form[field]}
      disabled={sending}
      onChange={(value) => set(field, value as CampaignForm[K])}
    />
  );
  return (
    <>
      <h2>Recording Rules</h2>
      <div className="form-row">
        <Field
          id="campaign-privacy"
          label="Privacy"
          help="Masked before anything leaves the visitor's browser: relaxed, what they type; balanced, also e-mails and long numbers on the page; strict, all text and images."
        >
          {choices('privacy', PRIVACY_LABELS)}
        </Field>
        <Field
          id="campaign-sampleRate"
          label="Sessions Recorded (%)"
          help="The share of visits recorded, 1 to 100. A visit is recorded whole or not at all."
          error={errors.sampleRate}
        >
          {text('sampleRate', 'number')}
        </Field>
      </div>
      <Field
        id="campaign-blockSelector"
        label="Elements Never Recorded"
        help="A CSS selector, e.g. .price, #account. They show as empty boxes of the same size; elements with the class td-block or a data-td-block attribute are never recorded either."
        error={errors.blockSelector}
      >
        <input
          id="campaign-blockSelector"
          className="input"
          type="text"
          maxLength={MAX_BLOCK_SELECTOR}
          value={form.blockSelector}
          disabled={sending}
          onChange={(e) => set('blockSelector', e.target.value)}
        />
      </Field>
      <div className="form-row">
        <Field
          id="campaign-urlInclude"
          label="Record Only These Pages"
          help="Paths, one a line, e.g. /checkout/* (* matches anything). Empty: every page."
          error={errors.urlInclude}
        >
          {lines('urlInclude')}
        </Field>
        <Field
          id="campaign-urlExclude"
          label="Never Record These Pages"
          help="Paths, one a line, e.g. /account/*. Recording pauses while the visitor is there."
          error={errors.urlExclude}
        >
          {lines('urlExclude')}
        </Field>
      </div>
      <Field
        id="campaign-minDurationSeconds"
        label="Shortest Session Kept (seconds)"
        help="Shorter sessions are deleted once they have ended (0: every session is kept)."
        error={errors.minDurationSeconds}
      >
        {text('minDurationSeconds', 'number')}
      </Field>
      <div className="form-row">
        <Field id="campaign-consent" label="Visitor Consent" help="Required: nothing is recorded or sent until your site calls tapedeck.consent(true).">
          {choices('consent', CONSENT_LABELS)}
        </Field>
        <Field
          id="campaign-consentBufferSeconds"
          label="Seconds Held Before Consent"
          help="With consent required: the last seconds kept in the browser's memory only, sent if the visitor agrees, dropped if they refuse or leave (0: none)."
          error={errors.consentBufferSeconds}
        >
          {text('consentBufferSeconds', 'number')}
        </Field>
      </div>
      <CheckboxField
        id="campaign-keepQuery"
        label="Keep query strings in page addresses"
        help="Off: recordings keep each page's path only (/search). On: also its query string (/search?q=shoes), with the values of the parameters below masked. Fragments (#…) are never kept, and share links without session details show paths only."
        checked={form.keepQuery}
        disabled={sending}
        onChange={(checked) => set('keepQuery', checked)}
      />
      <Field
        id="campaign-maskedParams"
        label="Masked Parameters"
        help="Comma-separated parameter names whose values are replaced by * when query strings are kept, whatever their case."
        error={errors.maskedParams}
      >
        {text('maskedParams')}
      </Field>
    </>
  );
}
