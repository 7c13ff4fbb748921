import { useId, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { API_KEY_NAME_MAX, API_KEY_SCOPES, SCOPE_TEXTS, type ApiKeyScope } from '../../common/api-keys.js';
import type { ApiKeyItem } from '../../common/api/api-keys.js';
import { apiKeysQueryOptions, createApiKey, revokeApiKey } from '../api/apiKeys.js';
import { workspaceKeys } from '../api/workspaces.js';
import { CopyField } from '../components/CopyField.js';
import { ErrorBox } from '../components/ErrorBox.js';
import { RoleNote } from '../components/RoleNote.js';
import { ConfirmDeleteModal } from '../components/SessionModals.js';
import { teamErrorMessage } from './teamErrors.js';

// The workspace's API keys (issue 38), on its Members screen: owners and admins (api_keys.manage)
// make one with a name, scopes and an optional expiry, see it once to copy, list the keys with
// their prefix, scopes and last use, and revoke one. Other roles see why they cannot.

const when = (ms: number) => new Date(ms).toLocaleString();
/** A date input's day as the epoch ms its end (the key works through that day), or undefined. */
function endOfDay(value: string): number | undefined {
  if (!value) return undefined;
  const [year, month, day] = value.split('-').map(Number);
  const end = new Date(year, month - 1, day + 1).getTime();
  return Number.isFinite(end) ? end : undefined;
}

export function ApiKeys({ workspaceId, refusal }: { workspaceId: string; refusal: string | null }) {
  const noteId = useId();
  return (
    <section className="card members-section" aria-labelledby="api-keys-title" data-testid="api-keys">
      <h2 id="api-keys-title">API keys</h2>
      <p className="muted small">
        A key calls the API (<code>Authorization: Bearer td_…</code>) with its scopes, as the member who made it, in this workspace only.
      </p>
      <RoleNote id={noteId} reason={refusal} />
      {!refusal && <KeyForm workspaceId={workspaceId} />}
      {!refusal && <KeyList workspaceId={workspaceId} />}
    </section>
  );
}

function KeyForm({ workspaceId }: { workspaceId: string }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ApiKeyScope[]>([]);
  const [expiry, setExpiry] = useState('');
  const id = useId();
  const create = useMutation({
    mutationFn: () => createApiKey(workspaceId, { name: name.trim(), scopes, expiresAt: endOfDay(expiry) }),
    onSuccess: () => {
      setName('');
      setScopes([]);
      setExpiry('');
      void queryClient.invalidateQueries({ queryKey: [...workspaceKeys.all, workspaceId] });
    },
  });
  const toggle = (scope: ApiKeyScope, on: boolean) => setScopes((held) => (on ? [...held, scope] : held.filter((s) => s !== scope)));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <>
      <form className="api-key-form" onSubmit={submit} aria-label="Create an API key">
        <div className="invite-field">
          <label htmlFor={`${id}-name`}>Name</label>
          <input id={`${id}-name`} className="input" required maxLength={API_KEY_NAME_MAX} value={name} onChange={(event) => setName(event.target.value)} />
        </div>
        <fieldset className="api-key-scopes">
          <legend>Scopes</legend>
          {API_KEY_SCOPES.map((scope) => (
            <label key={scope} className="api-key-scope">
              <input type="checkbox" checked={scopes.includes(scope)} onChange={(event) => toggle(scope, event.target.checked)} />
              <span className="mono">{scope}</span> <span className="muted small">{SCOPE_TEXTS[scope]}</span>
            </label>
          ))}
        </fieldset>
        <div className="invite-field">
          <label htmlFor={`${id}-expiry`}>Expires after (optional)</label>
          <input id={`${id}-expiry`} className="input" type="date" value={expiry} onChange={(event) => setExpiry(event.target.value)} />
        </div>
        <button type="submit" className="button button-primary" disabled={create.isPending || scopes.length === 0}>
          {create.isPending ? 'Creating key...' : 'Create key'}
        </button>
      </form>
      {create.error && <ErrorBox title="Failed to create the API key." message={teamErrorMessage(create.error)} />}
      {create.data && (
        <div className="api-key-shown">
          <CopyField label={`API key ${create.data.prefix}…`} value={create.data.key} testId="api-key-value" copyLabel="Copy key" />
          <p className="warning small">Copy this key now: it will not be shown again.</p>
        </div>
      )}
    </>
  );
}

function KeyList({ workspaceId }: { workspaceId: string }) {
  const queryClient = useQueryClient();
  const keys = useQuery(apiKeysQueryOptions(workspaceId));
  const [revoking, setRevoking] = useState<ApiKeyItem | null>(null);
  const revoke = useMutation({
    mutationFn: (key: ApiKeyItem) => revokeApiKey(key.id),
    onSettled: () => queryClient.invalidateQueries({ queryKey: [...workspaceKeys.all, workspaceId] }),
    onSuccess: () => setRevoking(null),
  });
  const failure = keys.error ?? revoke.error;
  const list = keys.data ?? [];
  // Expired as of when the list was read (keys.dataUpdatedAt): a render reads no clock.
  return (
    <>
      {failure && <ErrorBox title="Failed to load or revoke the API keys." message={teamErrorMessage(failure)} />}
      {keys.isSuccess && list.length === 0 && <p className="muted">No API keys yet.</p>}
      {list.length > 0 && (
        <ul className="member-list" aria-label="API keys">
          {list.map((key) => (
            <li key={key.id} className="member-line" data-testid="api-key-line">
              <div className="member-who">
                <strong>{key.name}</strong>
                <span className="mono small">{key.prefix}…</span>
                <span className="muted small">{key.scopes.join(', ')}</span>
                <span className="muted small">
                  {key.last_used_at === null ? 'Never used' : `Last used ${when(key.last_used_at)}`}
                  {' · '}
                  {key.expires_at === null ? 'Never expires' : `${key.expires_at <= keys.dataUpdatedAt ? 'Expired' : 'Expires'} ${when(key.expires_at)}`}
                </span>
              </div>
              <div className="actions">
                <button
                  type="button"
                  className="button button-danger button-small"
                  aria-label={`Revoke the API key ${key.name}`}
                  onClick={() => setRevoking(key)}
                >
                  Revoke
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      {revoking && (
        <ConfirmDeleteModal
          title="Revoke this API key?"
          confirmLabel="Revoke"
          deleting={revoke.isPending}
          onCancel={() => setRevoking(null)}
          onConfirm={() => revoke.mutate(revoking)}
        >
          <p>
            {revoking.name} ({revoking.prefix}…) stops working at once: every request with it is refused.
          </p>
        </ConfirmDeleteModal>
      )}
    </>
  );
}
