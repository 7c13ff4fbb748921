import { createFileRoute, redirect, type ErrorComponentProps } from '@tanstack/react-router';
import type { QueryClient } from '@tanstack/react-query';
import { campaignsQueryOptions, loaderScriptQueryOptions } from '../../api/campaigns.js';
import { workspacesQueryOptions } from '../../api/workspaces.js';
import { Dashboard, DashboardError, DashboardPending } from '../../screens/Dashboard.js';
import { useRetryLoad } from '../../lib/routeLoad.js';
import { validateWorkspaceSearch } from '../../lib/workspaceSearch.js';

/** With more than one workspace, the dashboard always names one (the personal one unless the URL says). */
async function workspaceToShow(queryClient: QueryClient): Promise<string | undefined> {
  const workspaces = await queryClient.ensureQueryData(workspacesQueryOptions()).catch(() => null);
  if (!workspaces || workspaces.length < 2) return undefined;
  return (workspaces.find((workspace) => workspace.personal) ?? workspaces[0]).id;
}

export const Route = createFileRoute('/_authed/dashboard')({
  validateSearch: validateWorkspaceSearch,
  loaderDeps: ({ search }) => search,
  // The cached campaigns answer at once (offline: the persisted ones); until there, skeleton rows.
  // The script loads beside them: the rows show without it.
  loader: async ({ context, deps }) => {
    void context.queryClient.prefetchQuery(loaderScriptQueryOptions());
    const campaigns = context.queryClient.ensureQueryData(campaignsQueryOptions(deps.workspace));
    if (!deps.workspace) {
      // Asked beside the campaigns, so one workspace (most accounts) costs no extra wait.
      const workspace = await workspaceToShow(context.queryClient);
      if (workspace) {
        campaigns.catch(() => undefined); // the redirected load asks again
        throw redirect({ to: '/dashboard', search: { workspace }, replace: true });
      }
    }
    await campaigns;
  },
  component: DashboardRoute,
  pendingComponent: DashboardPending,
  pendingMs: 0,
  pendingMinMs: 0,
  errorComponent: DashboardErrorRoute,
});

function DashboardRoute() {
  return <Dashboard workspaceId={Route.useSearch().workspace} />;
}

function DashboardErrorRoute({ error, reset }: ErrorComponentProps) {
  // Retry runs the loader again.
  return <DashboardError error={error} onRetry={useRetryLoad(reset)} />;
}
