import { createFileRoute, stripSearchParams, type SearchSchemaInput } from '@tanstack/react-router';
import { peopleQueryOptions } from '../../../../api/people.js';
import { CampaignPeople } from '../../../../screens/CampaignPeople.js';
import { Spinner } from '../../../../components/Spinner.js';
import { loadOnEnter } from '../../../../lib/routeLoad.js';
import { PEOPLE_SEARCH_MAX } from '../../../../../common/people.js';

interface PeopleSearch {
  q: string;
}

/** The search lives in the URL (none: everyone); text the server would refuse is cut to its cap. */
const validatePeopleSearch = (search: Partial<PeopleSearch> & SearchSchemaInput): PeopleSearch => ({
  q: typeof search.q === 'string' ? search.q.slice(0, PEOPLE_SEARCH_MAX) : '',
});

export const Route = createFileRoute('/_authed/campaign/$campaignId/people')({
  validateSearch: validatePeopleSearch,
  search: { middlewares: [stripSearchParams({ q: '' })] },
  loaderDeps: ({ search }) => search,
  // Entering the page the first page is in the cache first; a new search loads behind the list on screen.
  loader: ({ context, params, deps, cause }) => loadOnEnter(cause, context.queryClient.ensureInfiniteQueryData(peopleQueryOptions(params.campaignId, deps.q))),
  pendingComponent: () => <Spinner label="Loading people..." />,
  pendingMs: 0,
  pendingMinMs: 0,
  component: CampaignPeopleRoute,
});

function CampaignPeopleRoute() {
  const { campaignId } = Route.useParams();
  const { q } = Route.useSearch();
  const navigate = Route.useNavigate();
  return <CampaignPeople campaignId={campaignId} q={q} onSearch={(text) => void navigate({ search: { q: text }, replace: true })} />;
}
