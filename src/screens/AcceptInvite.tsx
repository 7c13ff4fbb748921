import { useEffect, useRef } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { acceptInvite } from '../api/workspaces.js';
import { campaignKeys } from '../api/campaigns.js';
import { logout, useAuth } from '../auth/session.js';
import { startSignIn } from '../auth/signIn.js';
import { ErrorBox } from '../components/ErrorBox.js';
import { Spinner } from '../components/Spinner.js';
import { teamErrorMessage } from './teamErrors.js';

// The page an invite's link opens (issue 37): a signed-out person signs in (or up) and comes back
// here; a signed-in one accepts at once and lands on the workspace's dashboard. A link that
// expired, was revoked or used, or is for another e-mail says so, in the server's words.

export function AcceptInvite({ token }: { token: string }) {
  const { user, isLoading } = useAuth();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const accept = useMutation({
    mutationFn: () => acceptInvite(token),
    onSuccess: async ({ workspace_id: workspace }) => {
      await queryClient.invalidateQueries({ queryKey: ['workspaces'] });
      await queryClient.invalidateQueries({ queryKey: campaignKeys.all });
      await navigate({ to: '/dashboard', search: { workspace }, replace: true });
    },
  });
  // Once per page (React StrictMode runs effects twice; a link works once).
  const asked = useRef(false);
  useEffect(() => {
    if (!user || asked.current) return;
    asked.current = true;
    accept.mutate();
  }, [user, accept]);

  const here = `/invite/${encodeURIComponent(token)}`;
  return (
    <div className="page page-narrow center">
      <h1>Join a workspace</h1>
      {isLoading ? (
        <Spinner label="Loading..." />
      ) : !user ? (
        <>
          <p>Sign in with the e-mail address this invite was sent to, and you join its workspace.</p>
          <button type="button" className="button button-primary" onClick={() => startSignIn(here)}>
            Sign in to accept
          </button>
        </>
      ) : accept.isError ? (
        <ErrorBox title="This invite cannot be accepted" message={teamErrorMessage(accept.error)}>
          <p>Signed in as {user.email}.</p>
          <div className="actions">
            <button type="button" className="button button-secondary" onClick={() => void logout().then(() => startSignIn(here))}>
              Sign in as someone else
            </button>
            <button type="button" className="button button-primary" onClick={() => void navigate({ to: '/dashboard' })}>
              Go to Dashboard
            </button>
          </div>
        </ErrorBox>
      ) : (
        <Spinner label="Joining the workspace..." />
      )}
    </div>
  );
}
