import { cloneElement, useState, type FormEvent, type ReactElement } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { campaignKeys, createCampaign, createErrorMessage } from '../api/campaigns.js';
import {
  LIMIT_DEFAULT,
  LIMIT_MAX,
  LIMIT_MIN,
  toCreatePayload,
  validateCampaignForm,
  type CampaignForm,
  type CampaignFormErrors,
  type CampaignFormField,
} from '../lib/createForm.js';
import { MAX_DOMAINS_LENGTH, MAX_NAME_LENGTH } from '../../common/domains.js';
import { toLocalInputValue } from '../lib/format.js';
import { ErrorBox } from '../components/ErrorBox.js';
import { useWhenBackOnline } from '../offline/useOnline.js';
import { OfflineWriteError } from '../offline/network.js';
import type { CreateCampaignPayload } from '../../common/api-types.js';

const initialForm = (): CampaignForm => ({
  name: '',
  domains: '',
  limit: String(LIMIT_DEFAULT),
  startDate: toLocalInputValue(new Date()),
  endDate: '',
});

export function CreateCampaign() {
  const [form, setForm] = useState<CampaignForm>(initialForm);
  const [errors, setErrors] = useState<CampaignFormErrors>({});
  const [captureConsole, setCaptureConsole] = useState(true);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const create = useMutation({
    mutationFn: (payload: CreateCampaignPayload) => createCampaign(payload),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: campaignKeys.all });
      await navigate({ to: '/dashboard' });
    },
  });
  const sending = create.isPending;
  useWhenBackOnline(create.error instanceof OfflineWriteError, create.reset);

  const edit = (field: CampaignFormField) => (value: string) => {
    setForm((f) => ({ ...f, [field]: value }));
    if (errors[field]) setErrors(({ [field]: _cleared, ...rest }) => rest);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const found = validateCampaignForm(form);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      document.getElementById(`campaign-${Object.keys(found)[0]}`)?.focus();
      return;
    }
    create.mutate({ ...toCreatePayload(form), captureConsole });
  };

  return (
    <div className="page page-narrow">
      <div className="page-header">
        <h1>Create Campaign</h1>
        <button type="button" className="button button-secondary" onClick={() => void navigate({ to: '/dashboard' })}>
          Back to Dashboard
        </button>
      </div>
      {create.isError && <ErrorBox title={createErrorMessage(create.error)} />}
      <form className="card form" onSubmit={onSubmit} noValidate>
        <Field id="campaign-name" label="Campaign Name" help="A name to recognise this campaign, e.g. “Spring landing page”." error={errors.name}>
          <input id="campaign-name" className="input" type="text" value={form.name} maxLength={MAX_NAME_LENGTH} disabled={sending} onChange={(e) => edit('name')(e.target.value)} />
        </Field>
        <Field
          id="campaign-domains"
          label="Domain to Accept Traffic From"
          help="Comma-separated list, e.g. example.com, localhost:3000. Sessions from other sites are refused."
          error={errors.domains}
        >
          <input id="campaign-domains" className="input" type="text" value={form.domains} maxLength={MAX_DOMAINS_LENGTH} disabled={sending} onChange={(e) => edit('domains')(e.target.value)} />
        </Field>
        <Field id="campaign-limit" label="Session Limit" help={`How many sessions to record, from ${LIMIT_MIN} to ${LIMIT_MAX}.`} error={errors.limit}>
          <input id="campaign-limit" className="input" type="number" min={LIMIT_MIN} max={LIMIT_MAX} value={form.limit} disabled={sending} onChange={(e) => edit('limit')(e.target.value)} />
        </Field>
        <div className="field">
          <label className="checkbox" htmlFor="campaign-captureConsole">
            <input id="campaign-captureConsole" type="checkbox" aria-describedby="campaign-captureConsole-help" checked={captureConsole} disabled={sending} onChange={(e) => setCaptureConsole(e.target.checked)} />{' '}
            Capture console messages
          </label>
          <p className="help" id="campaign-captureConsole-help">console.error and console.warn calls on the site, with e-mails and long numbers masked. Errors and failed requests are always captured.</p>
        </div>
        <div className="form-row">
          <Field id="campaign-startDate" label="Start Date" help="Recording starts at this date and time (your local time)." error={errors.startDate}>
            <input id="campaign-startDate" className="input" type="datetime-local" value={form.startDate} disabled={sending} onChange={(e) => edit('startDate')(e.target.value)} />
          </Field>
          <Field id="campaign-endDate" label="End Date" help="Recording stops after this date and time." error={errors.endDate}>
            <input id="campaign-endDate" className="input" type="datetime-local" value={form.endDate} disabled={sending} onChange={(e) => edit('endDate')(e.target.value)} />
          </Field>
        </div>
        <div className="form-actions">
          <button type="submit" className="button button-primary" disabled={sending}>
            {sending ? 'Creating Campaign...' : 'Create Campaign'}
          </button>
        </div>
      </form>
    </div>
  );
}

function Field({ id, label, help, error, children }: { id: string; label: string; help: string; error?: string; children: ReactElement<Record<string, unknown>> }) {
  // Screen readers hear the help text and the error with the input.
  const input = cloneElement(children, {
    'aria-describedby': error ? `${id}-help ${id}-error` : `${id}-help`,
    'aria-invalid': error ? true : undefined,
  });
  return (
    <div className={`field${error ? ' field-invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {input}
      <p className="help" id={`${id}-help`}>
        {help}
      </p>
      {error && (
        <p className="field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
