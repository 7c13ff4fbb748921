import { createFileRoute } from '@tanstack/react-router';
import { CampaignAlerts } from '../../../../screens/CampaignAlerts.js';

// The screen loads its alerts and shows its own loading and failure.
export const Route = createFileRoute('/_authed/campaign/$campaignId/alerts')({
  component: AlertsRoute,
});

function AlertsRoute() {
  return <CampaignAlerts campaignId={Route.useParams().campaignId} />;
}
