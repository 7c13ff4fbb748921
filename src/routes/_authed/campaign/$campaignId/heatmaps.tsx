import { createFileRoute, stripSearchParams, type SearchSchemaInput } from '@tanstack/react-router';
import { heatmapPagesQueryOptions, heatmapQueryOptions } from '../../../../api/heatmaps.js';
import { daysOf, RANGE_DEFAULTS, type InsightsDays } from '../../../../api/insights.js';
import { CampaignHeatmaps, type HeatmapSearch } from '../../../../screens/CampaignHeatmaps.js';
import { PATH_MAX } from '../../../../../common/heatmaps.js';
import { VIEWPORT_CLASSES, type ViewportClass } from '../../../../../common/devices.js';
import { HEAT_LAYERS, type HeatLayer } from '../../../../lib/heatLayers.js';
import { warmPlayer } from '../../../../components/player/loadPlayer.js';
import { validateHeatmapFilters, type HeatmapFilters } from '../../../../lib/heatmapFilters.js';

type Search = HeatmapFilters & { path?: string; device?: ViewportClass; layer: HeatLayer; days: InsightsDays };

/** What the URL leaves out (TanStack Router's stripSearchParams takes them away). */
const DEFAULTS = { ...RANGE_DEFAULTS, layer: 'all' } as const;

export const Route = createFileRoute('/_authed/campaign/$campaignId/heatmaps')({
  // Page, device class, layer, range and the session filters live in the URL; anything else there is dropped.
  validateSearch: (search: Partial<Search> & SearchSchemaInput): Search => {
    const path = typeof search.path === 'string' && search.path.startsWith('/') && search.path.length <= PATH_MAX ? search.path : undefined;
    const device = VIEWPORT_CLASSES.find((d) => d === search.device);
    return {
      ...validateHeatmapFilters(search),
      path,
      device,
      layer: HEAT_LAYERS.find((l) => l.layer === search.layer)?.layer ?? DEFAULTS.layer,
      days: daysOf(search.days),
    };
  },
  search: { middlewares: [stripSearchParams(DEFAULTS)] },
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
