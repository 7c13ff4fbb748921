import { createFileRoute } from '@tanstack/react-router';
import { EditCampaign, type EditReturn } from '../../../../screens/EditCampaign.js';

export const Route = createFileRoute('/_authed/campaign/$campaignId/edit')({
  validateSearch: (search: Record<string, unknown>): { from?: EditReturn } => (search.from === 'sessions' ? { from: 'sessions' } : {}),
  component: EditCampaignRoute,
});

function EditCampaignRoute() {
  const { campaignId } = Route.useParams();
  const { from } = Route.useSearch();
  return <EditCampaign campaignId={campaignId} from={from ?? 'dashboard'} />;
}
