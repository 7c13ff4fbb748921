import { useEffect, useState } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { completeGoogleSignIn } from '../api/auth.js';
import type { SignInResponse } from '../../common/api-types.js';
import { signedIn } from '../auth/session.js';
import { DEFAULT_AFTER_SIGN_IN, safePath } from '../auth/returnTo.js';
import { dropLostReplays } from '../offline/lostWorkspaces.js';

export const NO_CODE = 'No authorization code received.';
export const SIGN_IN_FAILED = 'Authentication failed. Please try again.';
export const NO_USER = 'No user data received';

/**
 * One exchange per code (React StrictMode mounts twice, and a code can be used only once): kept
 * by the app's QueryClient, which runs one fetch per key at a time. 'auth' queries are never
 * persisted (offline/queryPersister.ts).
 */
function exchange(queryClient: QueryClient, code: string, state: string | null): Promise<SignInResponse> {
  return queryClient.fetchQuery({
    queryKey: ['auth', 'sign-in code', code],
    queryFn: () =>
      completeGoogleSignIn(code, state).then(
        (answer) => {
          if (!answer?.user) throw new Error(NO_USER);
          return { user: answer.user, returnTo: answer.returnTo ?? '' };
        },
        () => {
          throw new Error(SIGN_IN_FAILED);
        },
      ),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
}

export function AuthCallback({ code, state }: { code?: string; state?: string }) {
  const [error, setError] = useState<string | null>(code ? null : NO_CODE);
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  useEffect(() => {
    if (!code) return;
    let active = true;
    exchange(queryClient, code, state ?? null).then(
      async ({ user, returnTo }) => {
        if (!active) return;
        await signedIn(user, queryClient);
        // Behind the navigation: saved replays of workspaces the account has left go.
        void dropLostReplays().catch(() => undefined);
        // The page the user was going to, kept by the server through the sign-in.
        await navigate({ to: safePath(returnTo) ?? DEFAULT_AFTER_SIGN_IN, replace: true });
      },
      (e: unknown) => active && setError(e instanceof Error ? e.message : SIGN_IN_FAILED),
    );
    return () => {
      active = false;
    };
  }, [code, state, navigate, queryClient]);

  if (error) {
    return (
      <div className="page page-narrow center">
        <div className="card error-view" role="alert">
          <h1>Sign-in failed</h1>
          <p>{error}</p>
          <button type="button" className="button button-primary" onClick={() => void navigate({ to: '/' })}>
            Return to Home
          </button>
        </div>
      </div>
    );
  }
  return (
    <div className="page page-narrow center">
      <div className="spinner-wrap" role="status">
        <span className="spinner" aria-hidden="true" />
        <span>Processing authentication...</span>
      </div>
    </div>
  );
}
