import { createFileRoute, stripSearchParams, type SearchSchemaInput } from '@tanstack/react-router';
import { heatmapPagesQueryOptions, heatmapQueryOptions } from '../../../../api/heatmaps.js';
import { CampaignHeatmaps, type HeatmapSearch } from '../../../../screens/CampaignHeatmaps.js';
import { warmPlayer } from '../../../../components/player/loadPlayer.js';
import { HEATMAP_DEFAULTS, validateHeatmapFilters, validateHeatmapSearch, type HeatmapRouteSearch } from '../../../../lib/heatmapFilters.js';

export const Route = createFileRoute('/_authed/campaign/$campaignId/heatmaps')({
  // Page, device class, layer, range and the session filters live in the URL; anything else there is dropped.
  validateSearch: (search: Partial<HeatmapRouteSearch> & SearchSchemaInput) => validateHeatmapSearch(search),
  search: { middlewares: [stripSearchParams(HEATMAP_DEFAULTS)] },
  loaderDeps: ({ search }) => ({ path: search.path, device: search.device, days: search.days, filters: validateHeatmapFilters(search) }),
  loader: ({ context, params, deps }) => {
    void context.queryClient.prefetchQuery(heatmapPagesQueryOptions(params.campaignId, deps.days));
    void context.queryClient.prefetchQuery(heatmapQueryOptions(params.campaignId, deps));
    // The page is rebuilt by the player's code: it loads while the heatmap does.
    warmPlayer();
  },
  component: CampaignHeatmapsRoute,
});

function CampaignHeatmapsRoute() {
  const { campaignId } = Route.useParams();
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  const current: HeatmapSearch = { path: search.path, device: search.device, layer: search.layer, days: search.days, filters: validateHeatmapFilters(search) };
  const onChange = (next: Partial<HeatmapSearch>) => {
    const { filters, ...merged } = { ...current, ...next };
    void navigate({ search: { ...filters, ...merged }, replace: true });
  };
  return <CampaignHeatmaps campaignId={campaignId} {...current} onChange={onChange} />;
}
