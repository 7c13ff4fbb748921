import { createFileRoute, stripSearchParams, type SearchSchemaInput } from '@tanstack/react-router';
import { viewportClass } from '../../../../../common/devices.js';
import { heatmapPagesQueryOptions, heatmapQueryOptions } from '../../../../api/heatmaps.js';
import { CampaignHeatmaps, type HeatmapSearch } from '../../../../screens/CampaignHeatmaps.js';
import { warmPlayer } from '../../../../components/player/loadPlayer.js';
import { loadOnEnter } from '../../../../lib/routeLoad.js';
import { Spinner } from '../../../../components/Spinner.js';
import { HEATMAP_DEFAULTS, validateHeatmapFilters, validateHeatmapSearch, type HeatmapRouteSearch } from '../../../../lib/heatmapFilters.js';

/**
 * The screen's choice from its search (the layer is the screen's own drawing, not the query's);
 * with no device class chosen, the viewer's own (a phone's owner sees the phone's heat first).
 */
const heatmapSearchOf = (search: HeatmapRouteSearch) => ({
  path: search.path,
  device: search.device ?? viewportClass(window.innerWidth),
  days: search.days,
  filters: validateHeatmapFilters(search),
});

export const Route = createFileRoute('/_authed/campaign/$campaignId/heatmaps')({
  // Page, device class, layer, range and the session filters live in the URL; anything else there is dropped.
  validateSearch: (search: Partial<HeatmapRouteSearch> & SearchSchemaInput) => validateHeatmapSearch(search),
  search: { middlewares: [stripSearchParams(HEATMAP_DEFAULTS)] },
  loaderDeps: ({ search }) => heatmapSearchOf(search),
  // Entering the screen the heatmap is in the cache first; another page, device, range or filter
  // loads behind the one on screen. The page list loads beside it.
  loader: ({ context, params, deps, cause }) => {
    void context.queryClient.prefetchQuery(heatmapPagesQueryOptions(params.campaignId, deps.days));
    // The page is rebuilt by the player's code: it loads while the heatmap does.
    warmPlayer();
    return loadOnEnter(cause, context.queryClient.ensureQueryData(heatmapQueryOptions(params.campaignId, deps)));
  },
  pendingComponent: () => <Spinner label="Loading the heatmap" />,
  pendingMs: 0,
  pendingMinMs: 0,
  component: CampaignHeatmapsRoute,
});

function CampaignHeatmapsRoute() {
  const { campaignId } = Route.useParams();
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  const current: HeatmapSearch = { ...heatmapSearchOf(search), layer: search.layer };
  const onChange = (next: Partial<HeatmapSearch>) => {
    const { filters, ...merged } = { ...current, ...next };
    void navigate({ search: { ...filters, ...merged }, replace: true });
  };
  return <CampaignHeatmaps campaignId={campaignId} {...current} onChange={onChange} />;
}
