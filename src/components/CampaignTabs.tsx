import './insights/insights.css';
import { Link } from '@tanstack/react-router';

/** The campaign's views, as tabs: the sessions list, the insights dashboard, the heatmaps and the funnels. */
export function CampaignTabs({ campaignId, current }: { campaignId: string; current: 'sessions' | 'insights' | 'heatmaps' | 'funnels' }) {
  return (
    <nav className="campaign-tabs" aria-label="Campaign views">
      <Link to="/campaign/$campaignId" params={{ campaignId }} className="campaign-tab" aria-current={current === 'sessions' ? 'page' : undefined}>
        Sessions
      </Link>
      <Link to="/campaign/$campaignId/insights" params={{ campaignId }} className="campaign-tab" aria-current={current === 'insights' ? 'page' : undefined}>
        Insights
      </Link>
      <Link to="/campaign/$campaignId/heatmaps" params={{ campaignId }} className="campaign-tab" aria-current={current === 'heatmaps' ? 'page' : undefined}>
        Heatmaps
      </Link>
      <Link to="/campaign/$campaignId/funnels" params={{ campaignId }} className="campaign-tab" aria-current={current === 'funnels' ? 'page' : undefined}>
        Funnels
      </Link>
    </nav>
  );
}
