import { createFileRoute, type ErrorComponentProps } from '@tanstack/react-router';
import { campaignsQueryOptions, loaderScriptQueryOptions } from '../../api/campaigns.js';
import { Dashboard, DashboardError, DashboardPending } from '../../screens/Dashboard.js';
import { useRetryLoad } from '../../lib/routeLoad.js';

export const Route = createFileRoute('/_authed/dashboard')({
  // The cached campaigns answer at once (offline: the persisted ones); until there, skeleton rows.
  // The script loads beside them: the rows show without it.
  loader: async ({ context }) => {
    void context.queryClient.prefetchQuery(loaderScriptQueryOptions());
    await context.queryClient.ensureQueryData(campaignsQueryOptions());
  },
  component: Dashboard,
  pendingComponent: DashboardPending,
  pendingMs: 0,
  pendingMinMs: 0,
  errorComponent: DashboardErrorRoute,
});

function DashboardErrorRoute({ error, reset }: ErrorComponentProps) {
  // Retry runs the loader again.
  return <DashboardError error={error} onRetry={useRetryLoad(reset)} />;
}
