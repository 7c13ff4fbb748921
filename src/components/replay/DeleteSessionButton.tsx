import { useState } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { deleteSession, deleteSessionErrorMessage } from '../../api/sessions.js';
import { campaignDataChanged } from '../../api/campaignData.js';
import { DeleteSessionModal } from '../SessionModals.js';
import { useCampaignPermissions } from '../../lib/permissions.js';

/** Deletes the session being replayed, after the same confirmation as the sessions list; then back to its sessions. */
export function DeleteSessionButton({ campaignId, sessionId }: { campaignId: string; sessionId: string }) {
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const cantErase = useCampaignPermissions(campaignId).refusal('data.erase');
  const remove = useMutation({
    mutationFn: () => deleteSession(campaignId, sessionId),
    onSuccess: async () => {
      setConfirming(false);
      await navigate({ to: '/campaign/$campaignId', params: { campaignId } });
      await campaignDataChanged(queryClient, campaignId);
    },
    onError: (failure) => {
      setConfirming(false);
      setError(deleteSessionErrorMessage(failure));
    },
  });

  // A role without erasure sees no Delete here (the replay's actions say why: ReplayActions).
  if (cantErase) return null;
  return (
    <>
      <button type="button" className="button button-danger" onClick={() => setConfirming(true)}>
        {/* "Delete" alone in sight on a phone; the whole name stays. */}
        Delete<span className="phone-hidden"> Session</span>
      </button>
      {error && (
        <p className="player-note" role="alert">
          {error}
        </p>
      )}
      {confirming && (
        <DeleteSessionModal
          sessionId={sessionId}
          deleting={remove.isPending}
          onCancel={() => setConfirming(false)}
          onConfirm={() => {
            setError(null);
            remove.mutate();
          }}
        />
      )}
    </>
  );
}
