import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.js';
import type { CreatedShare, ShareExpiry, ShareList } from '../../../common/api/shares.js';
import { useCampaignPermissions } from '../../lib/permissions.js';

const id = encodeURIComponent;
const exportPath = (campaignId: string, sessionId: string) => `/api/v1/replay/export/${id(campaignId)}/${id(sessionId)}`;
export const sharePath = (campaignId: string, sessionId: string) => `/api/v1/replay/share/${id(campaignId)}/${id(sessionId)}`;

const EXPIRY_CHOICES: { value: ShareExpiry; label: string }[] = [
  { value: '1h', label: '1 hour' },
  { value: '24h', label: '24 hours' },
  { value: '7d', label: '7 days' },
];

const when = (ms: number) => new Date(ms).toLocaleString();

interface ReplayActionsProps {
  campaignId: string;
  sessionId: string;
}

/**
 * The replay page's way out of the app: "Download recording" (one .json.gz file the app can open
 * again offline) and "Share" (a read-only link with an expiry, revocable, listed here).
 */
export function ReplayActions({ campaignId, sessionId }: ReplayActionsProps) {
  const [sharing, setSharing] = useState(false);
  const { refusal } = useCampaignPermissions(campaignId);
  // What the role cannot do here, said once beside the actions (a viewer: no download, no share).
  const refused = [refusal('sessions.download'), refusal('shares.manage'), refusal('data.erase')].filter(Boolean);
  return (
    <div className="replay-share">
      {!refusal('sessions.download') && (
        <a className="button button-secondary" href={exportPath(campaignId, sessionId)} download={`tapedeck-${sessionId}.json.gz`}>
          Download<span className="phone-hidden"> recording</span>
        </a>
      )}
      {!refusal('shares.manage') && (
        <button type="button" className="button button-secondary" aria-expanded={sharing} onClick={() => setSharing((open) => !open)}>
          Share
        </button>
      )}
      {refused.length > 0 && (
        <p className="small muted role-note" data-testid="role-note">
          {refused.join('; ')}
        </p>
      )}
      {sharing && <SharePanel campaignId={campaignId} sessionId={sessionId} />}
    </div>
  );
}

function SharePanel({ campaignId, sessionId }: ReplayActionsProps) {
  const queryClient = useQueryClient();
  const listKey = ['shares', campaignId, sessionId];
  const links = useQuery({ queryKey: listKey, queryFn: () => api.get<ShareList>(sharePath(campaignId, sessionId)) });
  const [expiresIn, setExpiresIn] = useState<ShareExpiry>('24h');
  const [includeDetails, setIncludeDetails] = useState(false);
  const create = useMutation({
    mutationFn: () => api.post<CreatedShare>(sharePath(campaignId, sessionId), { expiresIn, includeDetails }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: listKey }),
  });
  const revoke = useMutation({
    mutationFn: (linkId: string) => api.delete(`/api/v1/replay/share/${id(linkId)}`),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: listKey }),
  });
  const failure = create.error ?? revoke.error ?? links.error;

  return (
    <section className="card share-panel" aria-label="Share this replay">
      <form
        className="share-form"
        onSubmit={(event) => {
          event.preventDefault();
          create.mutate();
        }}
      >
        <label className="share-field">
          Link expires after{' '}
          <select className="input" value={expiresIn} onChange={(event) => setExpiresIn(event.target.value as ShareExpiry)}>
            {EXPIRY_CHOICES.map((choice) => (
              <option key={choice.value} value={choice.value}>
                {choice.label}
              </option>
            ))}
          </select>
        </label>
        <label className="share-check">
          <input type="checkbox" checked={includeDetails} onChange={(event) => setIncludeDetails(event.target.checked)} /> Include session details
        </label>
        <button type="submit" className="button button-primary" disabled={create.isPending}>
          Create link
        </button>
      </form>
      {create.data && (
        <p className="share-created">
          <label className="share-field share-link">
            Share link <input className="input mono" readOnly value={create.data.url} data-testid="share-url" onFocus={(event) => event.target.select()} />
          </label>{' '}
          <button type="button" className="button button-secondary" onClick={() => void navigator.clipboard?.writeText(create.data.url)}>
            Copy
          </button>
        </p>
      )}
      {failure && (
        <p role="alert" className="error-text">
          {failure.message}
        </p>
      )}
      {links.data && links.data.links.length > 0 && (
        <ul className="share-links" aria-label="Share links">
          {links.data.links.map((link) => (
            <li key={link.id}>
              <span>
                Created {when(link.createdAt)}, {link.revoked ? 'revoked' : `expires ${when(link.expiresAt)}`}
                {link.includeDetails ? ', with session details' : ''}
              </span>{' '}
              {!link.revoked && (
                <button type="button" className="button button-secondary" onClick={() => revoke.mutate(link.id)} disabled={revoke.isPending}>
                  Revoke
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
