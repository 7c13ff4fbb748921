import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { RANGE_DEFAULTS, validateRange } from '../../../../api/insights.js';
import { funnelsQueryOptions } from '../../../../api/funnels.js';
import { CampaignFunnels } from '../../../../screens/CampaignFunnels.js';

export const Route = createFileRoute('/_authed/campaign/$campaignId/funnels')({
  // The range lives in the URL, as on the insights screen (none: the default); anything else there is dropped.
  validateSearch: validateRange,
  search: { middlewares: [stripSearchParams(RANGE_DEFAULTS)] },
  loader: ({ context, params }) => {
    void context.queryClient.prefetchQuery(funnelsQueryOptions(params.campaignId));
  },
  component: CampaignFunnelsRoute,
});

function CampaignFunnelsRoute() {
  const { campaignId } = Route.useParams();
  const { days } = Route.useSearch();
  const navigate = Route.useNavigate();
  return <CampaignFunnels campaignId={campaignId} days={days} onDays={(next) => void navigate({ search: { days: next }, replace: true })} />;
}
