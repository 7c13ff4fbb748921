import '../components/members.css';
import { Link } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { alertsQueryOptions } from '../api/webhooks.js';
import { ErrorBox } from '../components/ErrorBox.js';
import { Spinner } from '../components/Spinner.js';
import { EVENT_NAMES } from '../lib/webhookEvents.js';
import type { WebhookEvent } from '../../common/webhooks.js';
import { teamErrorMessage } from './teamErrors.js';

// A campaign's alerts (issue 38, part 5; docs/webhooks.md "Alerts in the app"): what webhooks are
// sent for, from the sessions that ended in the last day, each with a link to its replay.

export function CampaignAlerts({ campaignId }: { campaignId: string }) {
  const alerts = useQuery(alertsQueryOptions(campaignId));
  return (
    <div className="page">
      <div className="page-header">
        <h1>Alerts</h1>
      </div>
      {alerts.isError && <ErrorBox title="Failed to load the alerts." message={teamErrorMessage(alerts.error)} />}
      {!alerts.data && !alerts.isError && <Spinner label="Loading alerts..." />}
      {alerts.data?.length === 0 && <p className="muted">No alerts in the last day.</p>}
      {alerts.data && alerts.data.length > 0 && (
        <ul className="card alert-list" aria-label="Alerts">
          {alerts.data.map((alert, i) => (
            <li key={`${alert.event}-${alert.session_id ?? i}`} data-testid="alert-line">
              <strong>{EVENT_NAMES[alert.event as WebhookEvent] ?? alert.event}</strong>{' '}
              <span className="muted small">{new Date(alert.at).toLocaleString()}</span>{' '}
              {alert.session_id && (
                <Link to="/campaign/$campaignId/session/$sessionId" params={{ campaignId, sessionId: alert.session_id }}>
                  Watch the replay
                </Link>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
