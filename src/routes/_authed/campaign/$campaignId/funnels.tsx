import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { RANGE_DEFAULTS, validateRange } from '../../../../api/insights.js';
import { useRangeSearch } from '../../../../lib/useRangeSearch.js';
import { funnelsQueryOptions } from '../../../../api/funnels.js';
import { CampaignFunnels, CampaignFunnelsError } from '../../../../screens/CampaignFunnels.js';

export const Route = createFileRoute('/_authed/campaign/$campaignId/funnels')({
  // The range lives in the URL, as on the insights screen (none: the default); anything else there is dropped.
  validateSearch: validateRange,
  search: { middlewares: [stripSearchParams(RANGE_DEFAULTS)] },
  // The cached copy answers at once (offline: the persisted one); a load that fails shows errorComponent.
  loader: async ({ context, params }) => {
    await context.queryClient.ensureQueryData(funnelsQueryOptions(params.campaignId));
  },
  component: CampaignFunnelsRoute,
  errorComponent: CampaignFunnelsErrorRoute,
});

function CampaignFunnelsRoute() {
  return <CampaignFunnels {...useRangeSearch(Route.id)} />;
}

function CampaignFunnelsErrorRoute() {
  return <CampaignFunnelsError {...useRangeSearch(Route.id)} />;
}
