import { createFileRoute } from '@tanstack/react-router';
import { WorkspaceWebhooks } from '../../../../screens/WorkspaceWebhooks.js';

// As the Members route: the screen loads what it shows and shows its own loading and failure.
export const Route = createFileRoute('/_authed/workspaces/$workspaceId/webhooks')({
  component: WebhooksRoute,
});

function WebhooksRoute() {
  return <WorkspaceWebhooks workspaceId={Route.useParams().workspaceId} />;
}
