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
import { CheckboxField, Choices, Field } from '../components/FormField.js';
import { RecordingRulesFields } from './RecordingRulesFields.js';
import { useWhenBackOnline } from '../offline/useOnline.js';
import { OfflineWriteError } from '../offline/network.js';

// The campaign form, shared by Create Campaign and Edit Campaign: the same fields, rules and
// messages; each screen says what saving does.

const RETENTION_LABELS: Record<(typeof RETENTION_DAYS)[number], string> = { 7: '7 days', 30: '30 days', 90: '90 days', 365: '1 year', 0: 'Forever' };
const IP_MODE_LABELS: Record<IpMode, string> = {
  truncated: 'Truncated (192.0.2.0)',
  full: 'Full address',
  none: 'Not stored',
};

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
  const edit = (field: CampaignFormField) => (value: string) => set(field, value);

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
        <Field id="campaign-name" label="Campaign Name" help="A name to recognise this campaign, e.g. “Spring landing page”." error={errors.name}>
          <input
            id="campaign-name"
            className="input"
            type="text"
            value={form.name}
            maxLength={MAX_NAME_LENGTH}
            disabled={sending}
            onChange={(e) => edit('name')(e.target.value)}
          />
        </Field>
        <Field
          id="campaign-domains"
          label="Domain to Accept Traffic From"
          help="Comma-separated list, e.g. example.com, localhost:3000. Sessions from other sites are refused."
          error={errors.domains}
          errorDetail={notes.wrong}
          note={notes.kept}
        >
          <input
            id="campaign-domains"
            className="input"
            type="text"
            value={form.domains}
            maxLength={MAX_DOMAINS_LENGTH}
            disabled={sending}
            onChange={(e) => edit('domains')(e.target.value)}
          />
        </Field>
        <Field
          id="campaign-limit"
          label="Session Limit"
          help={`How many sessions to record, from ${LIMIT_MIN} to ${LIMIT_MAX} (0: no limit).`}
          error={errors.limit}
        >
          <input
            id="campaign-limit"
            className="input"
            type="number"
            min={LIMIT_MIN}
            max={LIMIT_MAX}
            step={1}
            value={form.limit}
            disabled={sending}
            onChange={(e) => edit('limit')(e.target.value)}
          />
        </Field>
        <CheckboxField
          id="campaign-captureConsole"
          label="Capture console messages"
          help="console.error and console.warn calls on the site, with e-mails and long numbers masked. Errors and failed requests are always captured."
          checked={form.captureConsole}
          disabled={sending}
          onChange={(checked) => set('captureConsole', checked)}
        />
        <div className="form-row">
          <Field id="campaign-startDate" label="Start Date" help="Recording starts at this date and time (your local time)." error={errors.startDate}>
            <input
              id="campaign-startDate"
              className="input"
              type="datetime-local"
              value={form.startDate}
              disabled={sending}
              onChange={(e) => edit('startDate')(e.target.value)}
            />
          </Field>
          <div className="field-stack">
            <Field id="campaign-endDate" label="End Date" help="Recording stops after this date and time." error={errors.endDate}>
              <input
                id="campaign-endDate"
                className="input"
                type="datetime-local"
                value={form.endDate}
                disabled={sending}
                onChange={(e) => edit('endDate')(e.target.value)}
              />
            </Field>
            <div className="end-date-choices" role="group" aria-label="Record for">
              {END_DATE_CHOICES.map((choice) => (
                <button
                  key={choice.label}
                  type="button"
                  className="button button-secondary button-small"
                  disabled={sending}
                  onClick={() => edit('endDate')(endDateAfter(form.startDate, choice, new Date()))}
                >
                  {choice.label}
                </button>
              ))}
            </div>
          </div>
        </div>
        <div className="form-row">
          <Field id="campaign-retentionDays" label="Keep Recordings" help="Recordings older than this are deleted.">
            <Choices
              id="campaign-retentionDays"
              options={RETENTION_DAYS.map((days) => [String(days), RETENTION_LABELS[days]] as const)}
              value={form.retentionDays}
              disabled={sending}
              onChange={(value) => set('retentionDays', value)}
            />
          </Field>
          <Field id="campaign-ipMode" label="Visitor IP Address" help="What is stored of each visitor's address; the country is looked up either way.">
            <Choices
              id="campaign-ipMode"
              options={IP_MODES.map((mode) => [mode, IP_MODE_LABELS[mode]] as const)}
              value={form.ipMode}
              disabled={sending}
              onChange={(value) => set('ipMode', value as IpMode)}
            />
          </Field>
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
