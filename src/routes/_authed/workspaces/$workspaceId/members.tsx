import { createFileRoute } from '@tanstack/react-router';
import { WorkspaceMembers } from '../../../../screens/WorkspaceMembers.js';

// The screen loads its members and shows its own loading and failure: no loader, pending or error
// component of the route, each of which would be one more lazy reference in every page's first load.
export const Route = createFileRoute('/_authed/workspaces/$workspaceId/members')({
  component: MembersRoute,
});

function MembersRoute() {
  return <WorkspaceMembers workspaceId={Route.useParams().workspaceId} />;
}
