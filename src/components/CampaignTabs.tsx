import './insights/insights.css';
import { Link } from '@tanstack/react-router';

/** The campaign's views, as tabs: the sessions list and the insights dashboard. */
export function CampaignTabs({ campaignId, current }: { campaignId: string; current: 'sessions' | 'insights' }) {
  return (
    <nav className="campaign-tabs" aria-label="Campaign views">
      <Link to="/campaign/$campaignId" params={{ campaignId }} className="campaign-tab" aria-current={current === 'sessions' ? 'page' : undefined}>
        Sessions
      </Link>
      <Link to="/campaign/$campaignId/insights" params={{ campaignId }} className="campaign-tab" aria-current={current === 'insights' ? 'page' : undefined}>
        Insights
      </Link>
    </nav>
  );
}
