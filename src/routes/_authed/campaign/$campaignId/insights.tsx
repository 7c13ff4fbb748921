import { createFileRoute, stripSearchParams, type ErrorComponentProps } from '@tanstack/react-router';
import { insightsQueryOptions, RANGE_DEFAULTS, validateRange } from '../../../../api/insights.js';
import { useRangeSearch } from '../../../../lib/useRangeSearch.js';
import { CampaignInsights, CampaignInsightsError } from '../../../../screens/CampaignInsights.js';

export const Route = createFileRoute('/_authed/campaign/$campaignId/insights')({
  // The range lives in the URL (none: the default); anything else there is dropped.
  validateSearch: validateRange,
  search: { middlewares: [stripSearchParams(RANGE_DEFAULTS)] },
  loaderDeps: ({ search }) => ({ days: search.days }),
  // The cached copy answers at once (offline: the persisted one); a load that fails shows errorComponent.
  loader: async ({ context, params, deps }) => {
    await context.queryClient.ensureQueryData(insightsQueryOptions(params.campaignId, deps.days));
  },
  component: CampaignInsightsRoute,
  errorComponent: InsightsErrorRoute,
});

function CampaignInsightsRoute() {
  return <CampaignInsights {...useRangeSearch(Route.id)} />;
}

function InsightsErrorRoute({ error }: ErrorComponentProps) {
  return <CampaignInsightsError {...useRangeSearch(Route.id)} error={error} />;
}
