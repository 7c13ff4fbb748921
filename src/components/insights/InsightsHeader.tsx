import { INSIGHTS_DAYS, type InsightsDays } from '../../api/insights.js';
import { useCampaignName } from '../../offline/useCampaignName.js';

export const RANGE_LABELS: Record<InsightsDays, string> = { 1: 'Last 24 hours', 7: 'Last 7 days', 30: 'Last 30 days', 90: 'Last 90 days' };

interface RangeProps {
  /** The select's id, unique on the page. */
  id: string;
  days: InsightsDays;
  onDays: (days: InsightsDays) => void;
}

/** An insights screen's heading: its title, the campaign's name and, given `range`, the range picker. */
export function InsightsHeader({ campaignId, title, range }: { campaignId: string; title: string; range?: RangeProps }) {
  const campaignName = useCampaignName(campaignId);
  return (
    <div className="page-header">
      <div>
        <h1>{title}</h1>
        {campaignName && <p className="campaign-name">{campaignName}</p>}
      </div>
      {range && (
        <div className="actions">
          <label className="visually-hidden" htmlFor={range.id}>
            Range
          </label>
          <select id={range.id} className="input" value={range.days} onChange={(e) => range.onDays(Number(e.target.value) as InsightsDays)}>
            {INSIGHTS_DAYS.map((d) => (
              <option key={d} value={d}>
                {RANGE_LABELS[d]}
              </option>
            ))}
          </select>
        </div>
      )}
    </div>
  );
}
