import { useNavigate, useRouterState } from '@tanstack/react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Campaign } from '../../common/api-types.js';
import { campaignKeys } from '../api/campaigns.js';
import { workspacesQueryOptions } from '../api/workspaces.js';

// The shell's workspace switcher (issue 37): shown to accounts in more than one workspace. The
// current one is the URL's (?workspace= on the dashboard), or on a campaign's pages the campaign's.

export default function WorkspaceSwitcher() {
  const { data } = useQuery(workspacesQueryOptions());
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const named = useRouterState({
    select: (state) => {
      const { workspace } = state.location.search as { workspace?: string };
      const campaignId = (state.matches.at(-1)?.params as { campaignId?: string } | undefined)?.campaignId;
      return workspace ?? (campaignId && queryClient.getQueryData<Campaign[]>(campaignKeys.list())?.find((c) => c.id === campaignId)?.workspace_id);
    },
  });
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
