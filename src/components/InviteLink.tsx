import { useState } from 'react';
import type { CreatedInvite } from '../api/workspaces.js';

/** The link of an invite just made or sent again, to copy and send. */
export function InviteLink({ invite }: { invite: CreatedInvite }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard.writeText(invite.url).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  };
  return (
    <div className="invite-link" role="status">
      <label>
        Invite link (works once, until {new Date(invite.expires_at).toLocaleString()})
        <input className="input mono" readOnly value={invite.url} data-testid="invite-url" onFocus={(event) => event.target.select()} />
      </label>
      <button type="button" className="button button-secondary" onClick={() => void copy()}>
        {copied ? 'Copied' : 'Copy link'}
      </button>
    </div>
  );
}
