import { useId, useState } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { deleteAccount, signInsQueryOptions, signOutDevice, signOutEverywhere } from '../api/account.js';
import { HttpError } from '../api/client.js';
import { logout, useAuth } from '../auth/session.js';
import { ErrorBox } from '../components/ErrorBox.js';
import { ConfirmDeleteModal } from '../components/SessionModals.js';
import { Spinner } from '../components/Spinner.js';
import { formatDateTime } from '../lib/format.js';
import type { SignIn } from '../../common/api-types.js';
import { accountConfirmation, confirmsAccountDeletion, type Confirmable } from '../../common/account.js';

const reason = (error: unknown) =>
  error instanceof HttpError ? (error.serverMessage ?? error.message) : error instanceof Error ? error.message : String(error);

/**
 * The account page: the user's sign-ins (one per device) with "This device" marked, signing one
 * or all of them out, and deleting the account with a typed confirmation. Signing this device out
 * (or everywhere) and deleting end like a logout: the device's offline data is wiped.
 */
export function Account() {
  const { user } = useAuth();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const signIns = useQuery(signInsQueryOptions());
  const [deleting, setDeleting] = useState(false);

  /** The server has signed this device out: forget the user here too, wipe the device, go home. */
  const signedOutHere = async () => {
    await logout(queryClient, async () => undefined);
    await navigate({ to: '/' });
  };

  const one = useMutation({
    mutationFn: (signIn: SignIn) => signOutDevice(signIn.id),
    onSuccess: async (_ok, signIn) => {
      if (signIn.current) await signedOutHere();
      else await queryClient.invalidateQueries({ queryKey: signInsQueryOptions().queryKey });
    },
  });
  const everywhere = useMutation({ mutationFn: () => signOutEverywhere(), onSuccess: signedOutHere });
  const remove = useMutation({ mutationFn: (confirm: string) => deleteAccount(confirm), onSuccess: signedOutHere });
  const failed = one.error ?? everywhere.error;

  return (
    <div className="page page-narrow account-page">
      <div className="page-header">
        <h1>Account</h1>
      </div>
      {user && (
        <p className="muted">
          Signed in as <strong>{user.name}</strong>
          {user.email && <> ({user.email})</>}
        </p>
      )}
      {failed && <ErrorBox title="Signing out failed" message={reason(failed)} />}

      <section className="card account-section" aria-labelledby="sign-ins-title">
        <h2 id="sign-ins-title">Signed-in devices</h2>
        {signIns.isPending ? (
          <Spinner />
        ) : signIns.isError ? (
          <ErrorBox title="Error loading your sign-ins" message={reason(signIns.error)} />
        ) : (
          <ul className="sign-in-list">
            {signIns.data.signIns.map((signIn) => (
              <li key={signIn.id} className="sign-in-row" data-sign-in={signIn.id}>
                <div>
                  <strong>
                    {signIn.browser} on {signIn.os}
                  </strong>{' '}
                  <span className="muted">({signIn.device})</span>
                  {signIn.current && (
                    <>
                      {' '}
                      <span className="badge badge-active">This device</span>
                    </>
                  )}
                  <div className="muted small">
                    Signed in {formatDateTime(signIn.signedInAt)} · last active {formatDateTime(signIn.lastUsedAt)}
                  </div>
                </div>
                <button
                  type="button"
                  className="button button-secondary"
                  aria-label={`Sign out ${signIn.browser} on ${signIn.os}${signIn.current ? ' (this device)' : ''}`}
                  disabled={one.isPending || everywhere.isPending}
                  onClick={() => one.mutate(signIn)}
                >
                  Sign out
                </button>
              </li>
            ))}
          </ul>
        )}
        <p className="help">Signing out everywhere ends every sign-in, this device's too.</p>
        <button type="button" className="button button-secondary" disabled={everywhere.isPending} onClick={() => everywhere.mutate()}>
          {everywhere.isPending ? 'Signing out...' : 'Sign out everywhere'}
        </button>
      </section>

      <section className="card account-section" aria-labelledby="delete-account-title">
        <h2 id="delete-account-title">Delete account</h2>
        <p>Deletes your account and everything in it: your campaigns, their recorded sessions and share links. This cannot be undone.</p>
        <button type="button" className="button button-danger" onClick={() => setDeleting(true)}>
          Delete account
        </button>
      </section>

      {deleting && user && (
        <DeleteAccountModal
          user={user}
          pending={remove.isPending}
          error={remove.error ? reason(remove.error) : null}
          onCancel={() => {
            setDeleting(false);
            remove.reset();
          }}
          onConfirm={(typed) => remove.mutate(typed)}
        />
      )}
    </div>
  );
}

function DeleteAccountModal({
  user,
  pending,
  error,
  onCancel,
  onConfirm,
}: {
  user: Confirmable;
  pending: boolean;
  error: string | null;
  onCancel: () => void;
  onConfirm: (typed: string) => void;
}) {
  const [typed, setTyped] = useState('');
  const inputId = useId();
  return (
    <ConfirmDeleteModal
      title="Delete account?"
      confirmLabel="Delete account"
      deleting={pending}
      ready={confirmsAccountDeletion(user, typed)}
      onCancel={onCancel}
      onConfirm={() => onConfirm(typed)}
    >
      <p className="warning">This action cannot be undone. This will permanently delete:</p>
      <ul className="delete-list">
        <li>All your campaigns</li>
        <li>All recorded sessions and share links</li>
        <li>Your account and its sign-ins</li>
      </ul>
      <div className="field">
        <label htmlFor={inputId}>
          Type {user.email !== null ? 'your email' : 'your name'} <strong>{accountConfirmation(user)}</strong> to confirm
        </label>
        <input
          id={inputId}
          className="input"
          type="text"
          autoComplete="off"
          spellCheck={false}
          value={typed}
          disabled={pending}
          onChange={(e) => setTyped(e.target.value)}
        />
      </div>
      {error && <ErrorBox title="The account was not deleted" message={error} />}
    </ConfirmDeleteModal>
  );
}
