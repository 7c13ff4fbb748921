import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { fetchStar, setStar, starKey } from '../api/stars.js';
import { sessionKeys } from '../api/sessions.js';
import { createErrorMessage } from '../api/campaigns.js';

interface StarButtonProps {
  campaignId: string;
  sessionId: string;
  starred: boolean;
}

// A session's star: a toggle button (aria-pressed). Starred sessions are kept past the
// campaign's retention and found with the "Starred" filter.

export function StarButton({ campaignId, sessionId, starred }: StarButtonProps) {
  const queryClient = useQueryClient();
  const toggle = useMutation({
    mutationFn: (next: boolean) => setStar(campaignId, sessionId, next),
    onSuccess: async (answer) => {
      queryClient.setQueryData(starKey(campaignId, sessionId), answer);
      await queryClient.invalidateQueries({ queryKey: sessionKeys.campaign(campaignId) });
    },
  });
  const shown = toggle.isPending ? Boolean(toggle.variables) : starred;
  return (
    <>
      <button
        type="button"
        className={`button button-secondary button-small star-button${shown ? ' star-on' : ''}`}
        aria-pressed={shown}
        title={shown ? 'Starred: kept past the retention period' : 'Star to keep past the retention period'}
        disabled={toggle.isPending}
        onClick={() => toggle.mutate(!shown)}
      >
        <span aria-hidden="true">{shown ? '★' : '☆'}</span> <span className="star-text">{shown ? 'Starred' : 'Star'}</span>
      </button>
      {toggle.isError && (
        <span role="alert" className="error-text small">
          {createErrorMessage(toggle.error, 'Failed to change the star')}
        </span>
      )}
    </>
  );
}

/** The replay page's star, read from the server (the replay itself does not carry it). */
export function ReplayStar({ campaignId, sessionId }: Omit<StarButtonProps, 'starred'>) {
  const star = useQuery({ queryKey: starKey(campaignId, sessionId), queryFn: () => fetchStar(campaignId, sessionId) });
  if (!star.data) return null;
  return <StarButton campaignId={campaignId} sessionId={sessionId} starred={star.data.starred} />;
}
