import type { InputHTMLAttributes, ReactElement } from 'react';
import type { CampaignForm, CampaignFormErrors, CampaignFormField } from '../lib/createForm.js';
import { CheckboxField, Choices, Field } from '../components/FormField.js';
import { FIELD_TEXTS } from './campaignFieldTexts.js';

// The campaign form's controls, bound to its state, so that each field of the form is one call
// (CampaignForm.tsx and RecordingRulesFields.tsx): every control's id is campaign-<field>, which
// is also what the form focuses when that field has an error.

export interface CampaignFormState {
  form: CampaignForm;
  errors: CampaignFormErrors;
  sending: boolean;
  set: <K extends keyof CampaignForm>(field: K, value: CampaignForm[K]) => void;
}

type ChoiceField = 'retentionDays' | 'ipMode' | 'privacy' | 'consent';

const idOf = (field: keyof CampaignForm) => `campaign-${field}`;

export function campaignControls({ form, errors, sending, set }: CampaignFormState) {
  // Only some fields can be wrong (CampaignFormField); the others never have an error.
  const errorOf = (field: keyof CampaignForm) => (errors as Partial<Record<keyof CampaignForm, string>>)[field];
  return {
    /** A one-line input, text unless `attrs` says another type; `attrs` also gives its limits. */
    input: (field: CampaignFormField, attrs: InputHTMLAttributes<HTMLInputElement> = {}) => (
      <input id={idOf(field)} className="input" type="text" {...attrs} value={form[field]} disabled={sending} onChange={(e) => set(field, e.target.value)} />
    ),
    /** A list of paths, one a line. */
    lines: (field: 'urlInclude' | 'urlExclude') => (
      <textarea id={idOf(field)} className="input" rows={3} value={form[field]} disabled={sending} onChange={(e) => set(field, e.target.value)} />
    ),
    /** A select of [value, label] options, in order. */
    choices: <C extends ChoiceField>(field: C, options: readonly (readonly [string, string])[]) => (
      <Choices id={idOf(field)} options={options} value={form[field]} disabled={sending} onChange={(value) => set(field, value as CampaignForm[C])} />
    ),
    /** A control with its label and help text (FIELD_TEXTS) and its error; `notes` are the domains field's extra lines. */
    field: (field: keyof CampaignForm, control: ReactElement<Record<string, unknown>>, notes: { errorDetail?: string | null; note?: string | null } = {}) => (
      <Field id={idOf(field)} label={FIELD_TEXTS[field][0]} help={FIELD_TEXTS[field][1]} error={errorOf(field)} {...notes}>
        {control}
      </Field>
    ),
    checkbox: (field: 'captureConsole' | 'keepQuery') => (
      <CheckboxField
        id={idOf(field)}
        label={FIELD_TEXTS[field][0]}
        help={FIELD_TEXTS[field][1]}
        checked={form[field]}
        disabled={sending}
        onChange={(checked) => set(field, checked)}
      />
    ),
  };
}
