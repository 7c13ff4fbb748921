import '../components/members.css';
import { useId, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { INVITABLE_ROLES, type Role } from '../../common/teams.js';
import {
  changeRole,
  inviteMember,
  invitesQueryOptions,
  membersQueryOptions,
  removeMember,
  resendInvite,
  revokeInvite,
  workspaceKeys,
  type Member,
} from '../api/workspaces.js';
import { ErrorBox } from '../components/ErrorBox.js';
import { Spinner } from '../components/Spinner.js';
import { MembersError } from './MembersError.js';
import { RoleNote } from '../components/RoleNote.js';
import { ConfirmDeleteModal } from '../components/SessionModals.js';
import { useAuth } from '../auth/session.js';
import { useCurrentWorkspace, permissionsOf } from '../lib/permissions.js';
import { AuditLog } from './AuditLog.js';
import { ApiKeys } from './ApiKeys.js';
import { InviteLink } from '../components/InviteLink.js';
import { WebhooksLink } from './WorkspaceWebhooks.js';
import { teamErrorMessage } from './teamErrors.js';

// The Members screen of a workspace (issue 37): who belongs with which role, the invites still
// waiting, a form to invite by e-mail, and for owners and admins the workspace's API keys and audit log.

const ROLE_NAMES: Record<Role, string> = { owner: 'Owner', admin: 'Admin', member: 'Member', viewer: 'Viewer' };
const when = (ms: number) => new Date(ms).toLocaleString();

export function WorkspaceMembers({ workspaceId }: { workspaceId: string }) {
  const query = useQuery(membersQueryOptions(workspaceId));
  if (query.isError) return <MembersError error={query.error} onRetry={() => void query.refetch()} />;
  if (!query.data) return <Spinner label="Loading members..." />;
  return <MembersPage workspaceId={workspaceId} members={query.data} />;
}

function MembersPage({ workspaceId, members }: { workspaceId: string; members: Member[] }) {
  const { current } = useCurrentWorkspace(workspaceId);
  const permissions = permissionsOf(current);
  const cantManage = permissions.refusal('members.manage');
  const manages = current !== undefined && !cantManage;
  const noteId = useId();

  return (
    <div className="page members-page">
      <div className="page-header">
        <div>
          <h1>Members</h1>
          {current && <p className="muted">Workspace: {current.name}</p>}
        </div>
        {current && !permissions.refusal('webhooks.manage') && <WebhooksLink workspaceId={workspaceId} />}
      </div>
      <RoleNote id={noteId} reason={cantManage} />
      {manages && <InviteForm workspaceId={workspaceId} />}
      <MemberList
        workspaceId={workspaceId}
        members={members}
        manages={manages}
        transfers={current !== undefined && !permissions.refusal('workspace.transfer')}
      />
      {manages && <PendingInvites workspaceId={workspaceId} />}
      {current && <ApiKeys workspaceId={workspaceId} refusal={permissions.refusal('api_keys.manage')} />}
      {current && !permissions.refusal('audit.read') && <AuditLog workspaceId={workspaceId} members={members} />}
    </div>
  );
}

function InviteForm({ workspaceId }: { workspaceId: string }) {
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('member');
  const id = useId();
  const invite = useMutation({
    mutationFn: () => inviteMember(workspaceId, email.trim(), role),
    onSuccess: () => {
      setEmail('');
      void queryClient.invalidateQueries({ queryKey: [...workspaceKeys.all, workspaceId] });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    invite.mutate();
  };
  return (
    <section className="card members-section" aria-labelledby="invite-title">
      <h2 id="invite-title">Invite someone</h2>
      <form className="invite-form" onSubmit={submit}>
        <div className="invite-field invite-email">
          <label htmlFor={`${id}-email`}>E-mail</label>
          <input
            id={`${id}-email`}
            className="input"
            type="email"
            required
            autoComplete="off"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
        </div>
        <div className="invite-field">
          <label htmlFor={`${id}-role`}>Role</label>
          <select id={`${id}-role`} className="input" value={role} onChange={(event) => setRole(event.target.value as Role)}>
            {INVITABLE_ROLES.map((r) => (
              <option key={r} value={r}>
                {ROLE_NAMES[r]}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="button button-primary" disabled={invite.isPending}>
          {invite.isPending ? 'Creating invite...' : 'Create invite'}
        </button>
      </form>
      {invite.error && <ErrorBox title="Failed to create the invite." message={teamErrorMessage(invite.error)} />}
      {invite.data && <InviteLink invite={invite.data} />}
    </section>
  );
}

interface MemberListProps {
  workspaceId: string;
  members: Member[];
  manages: boolean;
  transfers: boolean;
}

function MemberList({ workspaceId, members, manages, transfers }: MemberListProps) {
  const queryClient = useQueryClient();
  const { user } = useAuth();
  const [removing, setRemoving] = useState<Member | null>(null);
  const [handingTo, setHandingTo] = useState<Member | null>(null);
  // Members, invites and the audit log (which records the change) load again; the roles too.
  const changed = async () => {
    await queryClient.invalidateQueries({ queryKey: [...workspaceKeys.all, workspaceId] });
    await queryClient.invalidateQueries({ queryKey: workspaceKeys.list() });
  };
  const role = useMutation({ mutationFn: ({ member, to }: { member: Member; to: Role }) => changeRole(workspaceId, member.user_id, to), onSettled: changed });
  const remove = useMutation({
    mutationFn: (member: Member) => removeMember(workspaceId, member.user_id),
    onSettled: changed,
    onSuccess: () => setRemoving(null),
  });
  const transfer = useMutation({
    mutationFn: (member: Member) => changeRole(workspaceId, member.user_id, 'owner'),
    onSettled: changed,
    onSuccess: () => setHandingTo(null),
  });
  const failure = role.error ?? remove.error ?? transfer.error;

  return (
    <section className="card members-section" aria-labelledby="members-title">
      <h2 id="members-title">Members ({members.length})</h2>
      {failure && <ErrorBox title="The change failed." message={teamErrorMessage(failure)} />}
      <ul className="member-list" aria-label="Members">
        {members.map((member) => {
          const owner = member.role === 'owner';
          const self = member.user_id === user?.id;
          return (
            <li key={member.user_id} className="member-line" data-testid="member-line">
              <div className="member-who">
                <strong>{member.name || member.email}</strong>
                {member.email && <span className="muted small">{member.email}</span>}
              </div>
              {manages && !owner ? (
                <label className="member-role">
                  <span className="visually-hidden">Role of {member.name || member.email}</span>
                  <select
                    className="input"
                    aria-label={`Role of ${member.name || member.email}`}
                    value={member.role}
                    disabled={role.isPending}
                    onChange={(event) => role.mutate({ member, to: event.target.value as Role })}
                  >
                    {INVITABLE_ROLES.map((r) => (
                      <option key={r} value={r}>
                        {ROLE_NAMES[r]}
                      </option>
                    ))}
                  </select>
                </label>
              ) : (
                <span className="badge member-badge">{ROLE_NAMES[member.role]}</span>
              )}
              <div className="actions">
                {transfers && !owner && !self && (
                  <button type="button" className="button button-secondary button-small" onClick={() => setHandingTo(member)}>
                    Make owner
                  </button>
                )}
                {manages && !owner && !self && (
                  <button type="button" className="button button-danger button-small" onClick={() => setRemoving(member)}>
                    Remove
                  </button>
                )}
              </div>
            </li>
          );
        })}
      </ul>
      {removing && (
        <ConfirmDeleteModal
          title="Remove this member?"
          confirmLabel="Remove"
          deleting={remove.isPending}
          onCancel={() => setRemoving(null)}
          onConfirm={() => remove.mutate(removing)}
        >
          <p>{removing.name || removing.email} loses this workspace at once: its campaigns, sessions and replays, open live views included.</p>
        </ConfirmDeleteModal>
      )}
      {handingTo && (
        <ConfirmDeleteModal
          title="Transfer the workspace?"
          confirmLabel="Make owner"
          deleting={transfer.isPending}
          onCancel={() => setHandingTo(null)}
          onConfirm={() => transfer.mutate(handingTo)}
        >
          <p>{handingTo.name || handingTo.email} becomes the owner of this workspace; you become an admin.</p>
        </ConfirmDeleteModal>
      )}
    </section>
  );
}

function PendingInvites({ workspaceId }: { workspaceId: string }) {
  const queryClient = useQueryClient();
  const invites = useQuery(invitesQueryOptions(workspaceId));
  const refresh = () => queryClient.invalidateQueries({ queryKey: [...workspaceKeys.all, workspaceId] });
  const resend = useMutation({ mutationFn: (inviteId: string) => resendInvite(workspaceId, inviteId), onSettled: refresh });
  const revoke = useMutation({ mutationFn: (inviteId: string) => revokeInvite(workspaceId, inviteId), onSettled: refresh });
  const failure = invites.error ?? resend.error ?? revoke.error;
  const list = invites.data ?? [];

  return (
    <section className="card members-section" aria-labelledby="invites-title">
      <h2 id="invites-title">Pending invites ({list.length})</h2>
      {failure && <ErrorBox title="Failed to load or change the invites." message={teamErrorMessage(failure)} />}
      {resend.data && <InviteLink invite={resend.data} />}
      {invites.isSuccess && list.length === 0 && <p className="muted">No invites are waiting.</p>}
      {list.length > 0 && (
        <ul className="member-list" aria-label="Pending invites">
          {list.map((invite) => (
            <li key={invite.id} className="member-line" data-testid="invite-line">
              <div className="member-who">
                <strong>{invite.email}</strong>
                <span className="muted small">Expires {when(invite.expires_at)}</span>
              </div>
              <span className="badge member-badge">{ROLE_NAMES[invite.role]}</span>
              <div className="actions">
                <button
                  type="button"
                  className="button button-secondary button-small"
                  aria-label={`Re-send the invite to ${invite.email}`}
                  disabled={resend.isPending}
                  onClick={() => resend.mutate(invite.id)}
                >
                  Re-send
                </button>
                <button
                  type="button"
                  className="button button-danger button-small"
                  aria-label={`Revoke the invite to ${invite.email}`}
                  disabled={revoke.isPending}
                  onClick={() => revoke.mutate(invite.id)}
                >
                  Revoke
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <p className="muted small">An invite's link is shown once, when it is made or sent again: re-send to get a new link (the old one stops working).</p>
    </section>
  );
}
