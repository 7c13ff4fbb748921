import { createFileRoute } from '@tanstack/react-router';
import { CreateCampaign } from '../../screens/CreateCampaign.js';
import { validateWorkspaceSearch } from '../../lib/workspaceSearch.js';

export const Route = createFileRoute('/_authed/createCampaign')({
  validateSearch: validateWorkspaceSearch,
  component: CreateCampaignRoute,
});

function CreateCampaignRoute() {
  return <CreateCampaign workspaceId={Route.useSearch().workspace} />;
}
