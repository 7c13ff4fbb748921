import { createFileRoute, type ErrorComponentProps } from '@tanstack/react-router';
import { membersQueryOptions, workspacesQueryOptions } from '../../../../api/workspaces.js';
import { WorkspaceMembers } from '../../../../screens/WorkspaceMembers.js';
import { MembersError } from '../../../../screens/MembersError.js';
import { Spinner } from '../../../../components/Spinner.js';
import { useRetryLoad } from '../../../../lib/routeLoad.js';

export const Route = createFileRoute('/_authed/workspaces/$workspaceId/members')({
  // The members first; the role (what the screen offers) comes with the workspace list.
  loader: async ({ context, params }) => {
    void context.queryClient.prefetchQuery(workspacesQueryOptions());
    await context.queryClient.ensureQueryData(membersQueryOptions(params.workspaceId));
  },
  pendingComponent: () => <Spinner label="Loading members..." />,
  pendingMs: 0,
  pendingMinMs: 0,
  component: MembersRoute,
  errorComponent: MembersErrorRoute,
});

function MembersRoute() {
  return <WorkspaceMembers workspaceId={Route.useParams().workspaceId} />;
}

function MembersErrorRoute({ error, reset }: ErrorComponentProps) {
  return <MembersError error={error} onRetry={useRetryLoad(reset)} />;
}
