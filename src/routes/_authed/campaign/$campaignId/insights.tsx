import { createFileRoute, stripSearchParams, type ErrorComponentProps } from '@tanstack/react-router';
import { insightsQueryOptions, RANGE_DEFAULTS, validateRange, type InsightsDays } from '../../../../api/insights.js';
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

/** The campaign and range, and the range's change as a replaced URL (for the component and the errorComponent alike). */
function useRange() {
  const { campaignId } = Route.useParams();
  const { days } = Route.useSearch();
  const navigate = Route.useNavigate();
  return { campaignId, days, onDays: (next: InsightsDays) => void navigate({ search: { days: next }, replace: true }) };
}

function CampaignInsightsRoute() {
  return <CampaignInsights {...useRange()} />;
}

function InsightsErrorRoute({ error }: ErrorComponentProps) {
  return <CampaignInsightsError {...useRange()} error={error} />;
}
