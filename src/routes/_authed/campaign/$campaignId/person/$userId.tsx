import { createFileRoute } from '@tanstack/react-router';
import { Person } from '../../../../../screens/Person.js';

export const Route = createFileRoute('/_authed/campaign/$campaignId/person/$userId')({
  component: PersonRoute,
});

function PersonRoute() {
  const { campaignId, userId } = Route.useParams();
  return <Person campaignId={campaignId} userId={userId} />;
}
