import type { CreatedInvite } from '../api/workspaces.js';
import { CopyField } from './CopyField.js';

/** The link of an invite just made or sent again, to copy and send. */
export const InviteLink = ({ invite }: { invite: CreatedInvite }) => (
  <CopyField
    label={`Invite link (works once, until ${new Date(invite.expires_at).toLocaleString()})`}
    value={invite.url}
    testId="invite-url"
    copyLabel="Copy link"
  />
);
