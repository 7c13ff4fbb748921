import '../components/members.css';
import { useId, useState, type FormEvent } from 'react';
import { Link } from '@tanstack/react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Webhook } from '../../common/api/webhooks.js';
import { WEBHOOK_EVENTS, WEBHOOK_URL_MAX, type WebhookEvent, type WebhookFormat } from '../../common/webhooks.js';
import {
  addWebhook,
  deleteWebhook,
  deliveriesQueryOptions,
  resendDelivery,
  rotateSecret,
  testWebhook,
  webhookKeys,
  webhooksQueryOptions,
} from '../api/webhooks.js';
import { campaignsQueryOptions } from '../api/campaigns.js';
import { ErrorBox } from '../components/ErrorBox.js';
import { Spinner } from '../components/Spinner.js';
import { RoleNote } from '../components/RoleNote.js';
import { ConfirmDeleteModal } from '../components/SessionModals.js';
import { useCurrentWorkspace, permissionsOf } from '../lib/permissions.js';
import { teamErrorMessage } from './teamErrors.js';
import { EVENT_NAMES } from '../lib/webhookEvents.js';

// The Webhooks screen of a workspace (issue 38; docs/webhooks.md): add an endpoint with its
// events (its secret shown once), test it, delete it, and read each one's deliveries with Resend.
// Owners and admins only (webhooks.manage): others see why, and nothing to press.

const when = (ms: number) => new Date(ms).toLocaleString();

/** The Members screen's link here, for those who may manage webhooks. */
export function WebhooksLink({ workspaceId }: { workspaceId: string }) {
  return (
    <Link to="/workspaces/$workspaceId/webhooks" params={{ workspaceId }} className="button button-secondary">
      Webhooks
    </Link>
  );
}

export function WorkspaceWebhooks({ workspaceId }: { workspaceId: string }) {
  const { current } = useCurrentWorkspace(workspaceId);
  const refusal = permissionsOf(current).refusal('webhooks.manage');
  const noteId = useId();
  return (
    <div className="page members-page">
      <div className="page-header">
        <div>
          <h1>Webhooks</h1>
          {current && <p className="muted">Workspace: {current.name}</p>}
        </div>
      </div>
      <RoleNote id={noteId} reason={refusal} />
      {current && !refusal && (
        <>
          <AddWebhook workspaceId={workspaceId} />
          <WebhookList workspaceId={workspaceId} />
        </>
      )}
    </div>
  );
}

function AddWebhook({ workspaceId }: { workspaceId: string }) {
  const queryClient = useQueryClient();
  const campaigns = useQuery(campaignsQueryOptions(workspaceId));
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEvent[]>(['session.errors']);
  const [campaignId, setCampaignId] = useState('');
  const [format, setFormat] = useState<WebhookFormat>('json');
  const id = useId();
  const add = useMutation({
    mutationFn: () => addWebhook({ url: url.trim(), events, format, workspace_id: workspaceId, ...(campaignId ? { campaign_id: campaignId } : {}) }),
    onSuccess: () => {
      setUrl('');
      void queryClient.invalidateQueries({ queryKey: webhookKeys.list(workspaceId) });
    },
  });
  const toggle = (event: WebhookEvent, on: boolean) => setEvents((picked) => (on ? [...picked, event] : picked.filter((e) => e !== event)));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate();
  };
  return (
    <section className="card members-section" aria-labelledby="add-webhook-title">
      <h2 id="add-webhook-title">Add a webhook</h2>
      <form className="webhook-form" onSubmit={submit}>
        <div className="invite-field">
          <label htmlFor={`${id}-url`}>Endpoint URL</label>
          <input
            id={`${id}-url`}
            className="input"
            type="url"
            required
            maxLength={WEBHOOK_URL_MAX}
            placeholder="https://example.com/tapedeck"
            value={url}
            onChange={(event) => setUrl(event.target.value)}
          />
        </div>
        <fieldset className="webhook-events">
          <legend>Events</legend>
          {WEBHOOK_EVENTS.map((event) => (
            <label key={event} className="checkbox-label">
              <input type="checkbox" checked={events.includes(event)} onChange={(change) => toggle(event, change.target.checked)} /> {EVENT_NAMES[event]}
            </label>
          ))}
        </fieldset>
        <div className="invite-field">
          <label htmlFor={`${id}-campaign`}>Campaign</label>
          <select id={`${id}-campaign`} className="input" value={campaignId} onChange={(event) => setCampaignId(event.target.value)}>
            <option value="">Every campaign of the workspace</option>
            {(campaigns.data ?? []).map((campaign) => (
              <option key={campaign.id} value={campaign.id}>
                {campaign.name}
              </option>
            ))}
          </select>
        </div>
        <div className="invite-field">
          <label htmlFor={`${id}-format`}>Format</label>
          <select id={`${id}-format`} className="input" value={format} onChange={(event) => setFormat(event.target.value as WebhookFormat)}>
            <option value="json">JSON</option>
            <option value="slack">Slack</option>
          </select>
        </div>
        <button type="submit" className="button button-primary" disabled={add.isPending || events.length === 0}>
          {add.isPending ? 'Adding webhook...' : 'Add webhook'}
        </button>
      </form>
      {add.error && <ErrorBox title="Failed to add the webhook." message={teamErrorMessage(add.error)} />}
      {add.data && <SecretShown secret={add.data.secret} />}
    </section>
  );
}

/** A secret just made: shown this once, to copy into the receiver. */
function SecretShown({ secret }: { secret: string }) {
  return (
    <div className="invite-link" role="status">
      <label>
        Signing secret (shown once: copy it now)
        <input className="input mono" readOnly value={secret} data-testid="webhook-secret" onFocus={(event) => event.target.select()} />
      </label>
    </div>
  );
}

function WebhookList({ workspaceId }: { workspaceId: string }) {
  const hooks = useQuery(webhooksQueryOptions(workspaceId));
  if (hooks.isError) return <ErrorBox title="Failed to load the webhooks." message={teamErrorMessage(hooks.error)} />;
  if (!hooks.data) return <Spinner label="Loading webhooks..." />;
  return (
    <section className="card members-section" aria-labelledby="webhooks-title">
      <h2 id="webhooks-title">Webhooks ({hooks.data.length})</h2>
      {hooks.data.length === 0 && <p className="muted">No webhooks yet.</p>}
      <ul className="member-list" aria-label="Webhooks">
        {hooks.data.map((hook) => (
          <WebhookLine key={hook.id} workspaceId={workspaceId} hook={hook} />
        ))}
      </ul>
    </section>
  );
}

function WebhookLine({ workspaceId, hook }: { workspaceId: string; hook: Webhook }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const logChanged = () => queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(hook.id) });
  const test = useMutation({ mutationFn: () => testWebhook(hook.id), onSuccess: () => (setOpen(true), logChanged()) });
  const rotate = useMutation({ mutationFn: () => rotateSecret(hook.id) });
  const remove = useMutation({
    mutationFn: () => deleteWebhook(hook.id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.list(workspaceId) }),
  });
  const failure = test.error ?? rotate.error ?? remove.error;
  return (
    <li className="member-line webhook-line" data-testid="webhook-line">
      <div className="member-who">
        <strong className="mono">{hook.url}</strong>
        <span className="muted small">
          {hook.events.map((event) => EVENT_NAMES[event as WebhookEvent] ?? event).join(' · ')} · {hook.format === 'slack' ? 'Slack' : 'JSON'}
        </span>
      </div>
      <div className="actions">
        <button type="button" className="button button-secondary button-small" disabled={test.isPending} onClick={() => test.mutate()}>
          Test
        </button>
        <button type="button" className="button button-secondary button-small" aria-expanded={open} onClick={() => setOpen(!open)}>
          Deliveries
        </button>
        <button type="button" className="button button-secondary button-small" disabled={rotate.isPending} onClick={() => rotate.mutate()}>
          Rotate secret
        </button>
        <button type="button" className="button button-danger button-small" onClick={() => setDeleting(true)}>
          Delete
        </button>
      </div>
      {failure && <ErrorBox title="The change failed." message={teamErrorMessage(failure)} />}
      {rotate.data && <SecretShown secret={rotate.data.secret} />}
      {open && <DeliveryLog webhookId={hook.id} />}
      {deleting && (
        <ConfirmDeleteModal
          title="Delete this webhook?"
          confirmLabel="Delete"
          deleting={remove.isPending}
          onCancel={() => setDeleting(false)}
          onConfirm={() => remove.mutate()}
        >
          <p>{hook.url} stops receiving events at once; its deliveries log is deleted with it.</p>
        </ConfirmDeleteModal>
      )}
    </li>
  );
}

function DeliveryLog({ webhookId }: { webhookId: string }) {
  const queryClient = useQueryClient();
  const log = useQuery(deliveriesQueryOptions(webhookId));
  const resend = useMutation({
    mutationFn: (deliveryId: string) => resendDelivery(webhookId, deliveryId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: deliveriesQueryOptions(webhookId).queryKey }),
  });
  if (log.isError) return <ErrorBox title="Failed to load the deliveries." message={teamErrorMessage(log.error)} />;
  if (!log.data) return <Spinner label="Loading deliveries..." />;
  if (log.data.length === 0) return <p className="muted small">No deliveries yet: press Test to send one.</p>;
  return (
    <table className="webhook-deliveries" aria-label="Deliveries">
      <thead>
        <tr>
          <th>Event</th>
          <th>Status</th>
          <th>Time</th>
          <th>Response</th>
          <th>Attempts</th>
          <th>
            <span className="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {log.data.map((delivery) => (
          <tr key={delivery.id} data-testid="delivery-line">
            <td className="mono">{delivery.event}</td>
            <td>{delivery.status}</td>
            <td>{when(delivery.at)}</td>
            <td title={delivery.last_error ?? undefined}>{delivery.response_code ?? '—'}</td>
            <td>{delivery.attempts}</td>
            <td>
              <button type="button" className="button button-secondary button-small" disabled={resend.isPending} onClick={() => resend.mutate(delivery.id)}>
                Resend
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
