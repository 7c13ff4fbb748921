import { Link } from '@tanstack/react-router';
import { HttpError } from '../api/client.js';
import { ErrorBox } from '../components/ErrorBox.js';
import { teamErrorMessage } from './teamErrors.js';

/** The Members screen when its members did not load: a workspace the user is not in (404), or a failure to retry. */
export function MembersError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const gone = error instanceof HttpError && error.status === 404;
  return (
    <div className="page page-narrow">
      <h1>Members</h1>
      <ErrorBox
        title={gone ? 'Workspace not found' : 'Failed to load the members.'}
        message={gone ? 'You are not a member of this workspace, or it no longer exists.' : teamErrorMessage(error)}
      >
        <div className="actions">
          {!gone && (
            <button type="button" className="button button-secondary" onClick={onRetry}>
              Retry
            </button>
          )}
          <Link to="/dashboard" className="button button-primary">
            Back to Dashboard
          </Link>
        </div>
      </ErrorBox>
    </div>
  );
}
