import './insights/insights.css';
import { Link } from '@tanstack/react-router';

/** The campaign's views, as tabs: the sessions list, the insights dashboard, the heatmaps, the funnels and the people directory. */
const TABS = [
  { view: 'sessions', to: '/campaign/$campaignId', label: 'Sessions' },
  { view: 'insights', to: '/campaign/$campaignId/insights', label: 'Insights' },
  { view: 'heatmaps', to: '/campaign/$campaignId/heatmaps', label: 'Heatmaps' },
  { view: 'funnels', to: '/campaign/$campaignId/funnels', label: 'Funnels' },
  { view: 'people', to: '/campaign/$campaignId/people', label: 'People' },
] as const;

export function CampaignTabs({ campaignId, current }: { campaignId: string; current: (typeof TABS)[number]['view'] }) {
  return (
    <nav className="campaign-tabs" aria-label="Campaign views">
      {TABS.map((tab) => (
        // Exact: the router would otherwise mark the Sessions tab current on its child routes too.
        <Link
          key={tab.view}
          to={tab.to}
          params={{ campaignId }}
          activeOptions={{ exact: true, includeSearch: false }}
          className="campaign-tab"
          aria-current={current === tab.view ? 'page' : undefined}
        >
          {tab.label}
        </Link>
      ))}
    </nav>
  );
}
