import { Link } from '@tanstack/react-router';
import { HttpError } from '../api/client.js';

/**
 * Whether loading a campaign's sessions failed because there is no such campaign among the user's:
 * unknown (404), not a campaign id at all (the server's 400 for a malformed one), or in a workspace
 * the user is not (or no longer) in (the server's bare 403, never a role's "Missing permission").
 */
export function isUnknownCampaign(error: unknown): boolean {
  if (!(error instanceof HttpError)) return false;
  return (
    error.status === 404 ||
    (error.status === 400 && error.serverMessage === 'Invalid campaign id') ||
    (error.status === 403 && error.serverMessage === 'Forbidden')
  );
}

/** In place of the sessions page when the campaign does not exist: what happened and the way back. */
export function CampaignNotFound({ campaignId }: { campaignId: string }) {
  return (
    <div className="page page-narrow center not-found">
      <h1>Campaign not found</h1>
      <p className="muted">There is no campaign with this ID among yours: it may have been deleted, or the link is incomplete.</p>
      <p className="mono small muted break">Campaign ID: {campaignId}</p>
      <div className="actions">
        <Link to="/dashboard" className="button button-primary">
          Back to Dashboard
        </Link>
      </div>
    </div>
  );
}
