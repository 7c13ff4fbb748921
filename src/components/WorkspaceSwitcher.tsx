import { useEffect, useRef } from 'react';
import { useNavigate, useRouterState } from '@tanstack/react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Campaign } from '../../common/api-types.js';
import { campaignKeys } from '../api/campaigns.js';
import { workspacesQueryOptions, type Workspace } from '../api/workspaces.js';

// The shell's workspace switcher (issue 37): shown to accounts in more than one workspace. The
// current one is the URL's (?workspace= on the dashboard), or on a campaign's pages the campaign's.
// It also keeps the membership fresh: a member removed from the workspace they are looking at is
// taken out of its screens within a heartbeat, whatever page they left open.

/** How often the signed-in app asks which workspaces are still the user's: the server's live heartbeat (LIVE_HEARTBEAT_MS' default). */
export const MEMBERSHIP_HEARTBEAT_MS = 15_000;

export default function WorkspaceSwitcher() {
  const { data } = useQuery({ ...workspacesQueryOptions(), refetchInterval: MEMBERSHIP_HEARTBEAT_MS });
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const named = useRouterState({
    select: (state) => {
      const { workspace } = state.location.search as { workspace?: string };
      const campaignId = (state.matches.at(-1)?.params as { campaignId?: string } | undefined)?.campaignId;
      return workspace ?? (campaignId && queryClient.getQueryData<Campaign[]>(campaignKeys.list())?.find((c) => c.id === campaignId)?.workspace_id);
    },
  });
  useLeavesLostWorkspace(data, named || undefined);
  if (!data || data.length < 2) return null;
  const current = data.find((w) => w.id === named) ?? data.find((w) => w.personal) ?? data[0];
  return (
    <label className="workspace-switcher">
      <span className="visually-hidden">Workspace</span>
      <select className="input" value={current.id} onChange={(event) => void navigate({ to: '/dashboard', search: { workspace: event.target.value } })}>
        {data.map((workspace) => (
          <option key={workspace.id} value={workspace.id}>
            {workspace.name}
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * The workspace on screen was the user's at the last answer and is not at this one (they were
 * removed): its campaigns are dropped from the cache and the app goes to the dashboard. Only a
 * workspace seen before counts, so one made a moment ago and not yet listed is left alone.
 */
function useLeavesLostWorkspace(workspaces: Workspace[] | undefined, current: string | undefined) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const seen = useRef(new Set<string>());
  useEffect(() => {
    if (!workspaces) return;
    const ids = new Set(workspaces.map((workspace) => workspace.id));
    const lost = current !== undefined && seen.current.has(current) && !ids.has(current);
    seen.current = ids;
    if (!lost) return;
    void queryClient.invalidateQueries({ queryKey: campaignKeys.all });
    void navigate({ to: '/dashboard', replace: true });
  }, [workspaces, current, queryClient, navigate]);
}
