import type { ReplayInit } from '../../common/api-types.js';
import { sessionTypeLabel } from '../api/sessions.js';
import { DetailsList } from './DetailsList.js';
import { summariseUserAgent } from '../../common/user-agent.js';
import { ProblemBadges } from './SessionFacts.js';
import { formatDurationMs, storedIpLabel } from '../lib/format.js';

// The replay page's session facts in one compact strip (browser, OS and device read from the
// user agent, then type, IP, language, timezone), with every field — the full user agent
// among them — one click away. Bot or human is the server's verdict, as in the sessions list.

export function SessionInfo({ init }: { init: ReplayInit }) {
  const agent = summariseUserAgent(init.userAgent);
  const strip: [label: string, value: string][] = [
    // The derived facts come with the replay (and with a saved one, offline).
    ...(init.durationMs === undefined ? [] : [['Duration', formatDurationMs(init.durationMs)] as [string, string]]),
    ['Browser', agent.browser],
    ['Operating system', agent.os],
    ['Device', agent.device],
    ['Session Type', sessionTypeLabel(init.isBot)],
    ['IP Address', storedIpLabel(init)],
    ['Language', init.language ?? 'Unknown'],
    ['Timezone', init.timezone ?? 'Unknown'],
  ];
  const rows: [string, string][] = [
    ['User Agent', init.userAgent ?? 'Unknown'],
    ['IP Address', storedIpLabel(init)],
    ['Language', init.language ?? 'Unknown'],
    ['Timezone', init.timezone ?? 'Unknown'],
    ['Session Type', sessionTypeLabel(init.isBot)],
    ...(init.isBot && init.botReason ? [['Bot Reason', init.botReason] as [string, string]] : []),
    ['Cookies', init.cookiesEnabled ? 'Enabled' : 'Disabled'],
    ['Focus', init.hasFocus ? 'Active' : 'None'],
    ['Fullscreen', init.fullScreenEnabled ? 'Fullscreen' : 'Windowed'],
  ];
  return (
    <section className="card session-info" aria-labelledby="info-title">
      <div className="session-strip">
        <h2 id="info-title">Session Information</h2>
        <ul className="session-strip-facts" data-testid="session-strip">
          {strip.map(([label, value]) => (
            <li key={label} className={label === 'Session Type' ? `session-type session-type-${init.isBot ? 'bot' : 'human'}` : undefined}>
              <span className="visually-hidden">{label}: </span>
              {value}
            </li>
          ))}
        </ul>
        <ProblemBadges session={init} />
      </div>
      <details className="session-more">
        <summary>All session details</summary>
        <DetailsList rows={rows} />
      </details>
    </section>
  );
}
