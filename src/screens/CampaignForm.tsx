import { useState, type FormEvent } from 'react';
import { useMutation, type UseMutationResult } from '@tanstack/react-query';
import { createErrorMessage } from '../api/campaigns.js';
import {
  END_DATE_CHOICES,
  LIMIT_MAX,
  LIMIT_MIN,
  domainNotes,
  endDateAfter,
  validateCampaignForm,
  type CampaignForm,
  type CampaignFormErrors,
  type CampaignFormField,
} from '../lib/createForm.js';
import { IP_MODES, MAX_DOMAINS_LENGTH, MAX_NAME_LENGTH, RETENTION_DAYS, type IpMode } from '../../common/domains.js';
import { ErrorBox } from '../components/ErrorBox.js';
import { RecordingRulesFields } from './RecordingRulesFields.js';
import { campaignControls } from './campaignControls.js';
import { useWhenBackOnline } from '../offline/useOnline.js';
import { OfflineWriteError } from '../offline/network.js';

// The campaign form, shared by Create Campaign and Edit Campaign: the same fields, rules and
// messages; each screen says what saving does.

const RETENTION_LABELS: Record<(typeof RETENTION_DAYS)[number], string> = { 7: '7 days', 30: '30 days', 90: '90 days', 365: '1 year', 0: 'Forever' };
const RETENTION_OPTIONS = RETENTION_DAYS.map((days) => [String(days), RETENTION_LABELS[days]] as const);
const IP_MODE_LABELS: Record<IpMode, string> = {
  truncated: 'Truncated (192.0.2.0)',
  full: 'Full address',
  none: 'Not stored',
};
const IP_MODE_OPTIONS = IP_MODES.map((mode) => [mode, IP_MODE_LABELS[mode]] as const);

interface CampaignFormPageProps {
  title: string;
  initial: CampaignForm;
  submitLabel: string;
  sendingLabel: string;
  /** The server's error shown when saving fails for another reason than its message. */
  failedText: string;
  backLabel: string;
  onBack: () => void;
  /** Saves a form that passed the shared rules; `opened` is the form as it first showed. */
  save: (form: CampaignForm, opened: CampaignForm) => Promise<unknown>;
}

export function CampaignFormPage({ title, initial, submitLabel, sendingLabel, failedText, backLabel, onBack, save }: CampaignFormPageProps) {
  const [form, setForm] = useState<CampaignForm>(initial);
  const [errors, setErrors] = useState<CampaignFormErrors>({});
  const mutation: UseMutationResult<unknown, Error, CampaignForm> = useMutation({ mutationFn: (values: CampaignForm) => save(values, initial) });
  const sending = mutation.isPending;
  useWhenBackOnline(mutation.error instanceof OfflineWriteError, mutation.reset);

  const set = <K extends keyof CampaignForm>(field: K, value: CampaignForm[K]) => {
    setForm((f) => ({ ...f, [field]: value }));
    if (errors[field as CampaignFormField]) setErrors(({ [field as CampaignFormField]: _cleared, ...rest }) => rest);
  };
  const { input, choices, field, checkbox } = campaignControls({ form, errors, sending, set });
  const notes = domainNotes(form, errors);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const found = validateCampaignForm(form);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      document.getElementById(`campaign-${Object.keys(found)[0]}`)?.focus();
      return;
    }
    mutation.mutate(form);
  };

  return (
    <div className="page page-narrow">
      <div className="page-header">
        <h1>{title}</h1>
        <button type="button" className="button button-secondary" onClick={onBack}>
          {backLabel}
        </button>
      </div>
      {mutation.isError && <ErrorBox title={createErrorMessage(mutation.error, failedText)} />}
      <form className="card form" onSubmit={onSubmit} noValidate>
        {field('name', input('name', { maxLength: MAX_NAME_LENGTH }))}
        {field('domains', input('domains', { maxLength: MAX_DOMAINS_LENGTH }), { errorDetail: notes.wrong, note: notes.kept })}
        {field('limit', input('limit', { type: 'number', min: LIMIT_MIN, max: LIMIT_MAX, step: 1 }))}
        {checkbox('captureConsole')}
        <div className="form-row">
          {field('startDate', input('startDate', { type: 'datetime-local' }))}
          <div className="field-stack">
            {field('endDate', input('endDate', { type: 'datetime-local' }))}
            <div className="end-date-choices" role="group" aria-label="Record for">
              {END_DATE_CHOICES.map((choice) => (
                <button
                  key={choice.label}
                  type="button"
                  className="button button-secondary button-small"
                  disabled={sending}
                  onClick={() => set('endDate', endDateAfter(form.startDate, choice, new Date()))}
                >
                  {choice.label}
                </button>
              ))}
            </div>
          </div>
        </div>
        <div className="form-row">
          {field('retentionDays', choices('retentionDays', RETENTION_OPTIONS))}
          {field('ipMode', choices('ipMode', IP_MODE_OPTIONS))}
        </div>
        <RecordingRulesFields form={form} errors={errors} sending={sending} set={set} />
        <div className="form-actions">
          <button type="submit" className="button button-primary" disabled={sending}>
            {sending ? sendingLabel : submitLabel}
          </button>
        </div>
      </form>
    </div>
  );
}
