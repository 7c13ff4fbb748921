import { Suspense, type ReactNode } from 'react';
import { useSuspenseQuery } from '@tanstack/react-query';
import { insightsErrorMessage, insightsKeys, insightsQueryOptions, type InsightsDays } from '../api/insights.js';
import { useLiveRefresh } from '../lib/useLiveRefresh.js';
import type { Insights } from '../../common/api/insights.js';
import type { SessionFilters } from '../lib/sessionFilters.js';
import { formatDurationMs } from '../lib/format.js';
import { CampaignTabs } from '../components/CampaignTabs.js';
import { ErrorBox } from '../components/ErrorBox.js';
import { Spinner } from '../components/Spinner.js';
import { SessionsChart } from '../components/insights/SessionsChart.js';
import { SessionsLink, type SessionsSearch } from '../components/insights/SessionsLink.js';
import { DIRECT_REFERRER, type UnknownValue } from '../../common/session-list.js';
import { PagesTable } from '../components/insights/PagesTable.js';
import { ErrorsTable } from '../components/insights/ErrorsTable.js';
import { TopTable, type TopRow } from '../components/insights/TopTable.js';
import { InsightsHeader } from '../components/insights/InsightsHeader.js';
import { UtmTable } from '../components/insights/UtmTable.js';
import { FrustrationTrend } from '../components/insights/FrustrationTrend.js';

/** A country's flag from its ISO code (regional indicator letters). */
const flag = (code: string) => String.fromCodePoint(...[...code.toUpperCase()].map((c) => 0x1f1a5 + c.charCodeAt(0)));

interface Props {
  campaignId: string;
  days: InsightsDays;
  onDays: (days: InsightsDays) => void;
}

/**
 * The insights screen. Its route's loader has the range's insights in the cache first (offline, the
 * persisted copy); until they are there (offline, never read on this device) it shows it is loading.
 */
export function CampaignInsights({ campaignId, days, onDays }: Props) {
  // Live: a session stored or deleted brings the dashboard again (at most every few seconds).
  useLiveRefresh(campaignId, insightsKeys.campaign(campaignId));
  return (
    <InsightsPage campaignId={campaignId} days={days} onDays={onDays}>
      <Suspense fallback={<Spinner label="Loading insights" />}>
        <InsightsData campaignId={campaignId} days={days} />
      </Suspense>
    </InsightsPage>
  );
}

/** The route's errorComponent: the page with the spec's error text where the dashboard goes. */
export function CampaignInsightsError({ error, ...props }: Props & { error: unknown }) {
  return (
    <InsightsPage {...props}>
      <ErrorBox title={insightsErrorMessage(error)} />
    </InsightsPage>
  );
}

function InsightsPage({ campaignId, days, onDays, children }: Props & { children: ReactNode }) {
  return (
    <div className="page insights-page">
      <InsightsHeader campaignId={campaignId} title="Campaign Insights" range={{ id: 'insights-range', days, onDays }} />
      <CampaignTabs campaignId={campaignId} current="insights" />
      {children}
    </div>
  );
}

function InsightsData({ campaignId, days }: { campaignId: string; days: InsightsDays }) {
  const { data } = useSuspenseQuery(insightsQueryOptions(campaignId, days));
  return <Dashboard campaignId={campaignId} insights={data} />;
}

function Dashboard({ campaignId, insights }: { campaignId: string; insights: Insights }) {
  // Every figure links to the sessions it counts: the range's, narrowed as the figure is.
  const range: SessionFilters = { from: insights.from, to: insights.to };
  const { totals, frustration } = insights;
  const link = (count: number, label: string, filters: SessionsSearch = {}, shown: ReactNode = count) => (
    <SessionsLink campaignId={campaignId} filters={{ ...range, ...filters }} label={`${count} ${label}`}>
      {shown}
    </SessionsLink>
  );
  const table = (title: string, column: string, rows: TopRow[]) => <TopTable title={title} column={column} campaignId={campaignId} range={range} rows={rows} />;
  const top = (
    unknown: UnknownValue | null,
    rows: { sessions: number }[],
    name: (row: never) => string | null,
    filters: (value: string) => SessionsSearch,
    label?: (value: string) => ReactNode,
  ): TopRow[] =>
    rows.map((row) => {
      const value = name(row as never);
      return {
        key: value ?? '',
        name: value ?? 'Unknown',
        label: value === null ? 'Unknown' : (label?.(value) ?? value),
        sessions: row.sessions,
        // Unknown: the sessions without the value.
        filters: value !== null ? filters(value) : unknown ? { unknown } : undefined,
      };
    });
  const all = (what: string) => `sessions: ${what}`;
  return (
    <>
      <div className="stats insights-stats" aria-label="Totals">
        <Stat label="Sessions">{link(totals.sessions, 'sessions')}</Stat>
        <Stat label="Human Users" tone="stat-green">
          {link(totals.humans, 'human sessions', { type: 'human' })}
        </Stat>
        <Stat label="Bot Traffic" tone="stat-amber">
          {link(totals.bots, 'bot sessions', { type: 'bot' })}
        </Stat>
        {/* The medians and the pages per session are of every session of the range: their links list those. */}
        <Stat label="Median duration">
          {link(
            totals.sessions,
            all(`median duration ${formatDurationMs(totals.medianDurationMs)}`),
            { sort: 'longest' },
            formatDurationMs(totals.medianDurationMs),
          )}
        </Stat>
        <Stat label="Median active time">
          {link(
            totals.sessions,
            all(`median active time ${formatDurationMs(totals.medianActiveMs)}`),
            { sort: 'active' },
            formatDurationMs(totals.medianActiveMs),
          )}
        </Stat>
        <Stat label="Pages per session">{link(totals.sessions, all(`${totals.pagesPerSession} pages per session`), {}, totals.pagesPerSession)}</Stat>
        <Stat label="Sessions with errors">{link(totals.withErrors, 'sessions with errors', { hasErrors: true })}</Stat>
        <Stat label="Sessions with frustration">{link(totals.withFrustration, 'sessions with frustration', { hasFrustration: true })}</Stat>
      </div>
      <SessionsChart campaignId={campaignId} insights={insights} />
      <section className="card" aria-label="Frustration">
        <h2 className="insights-heading">Frustration</h2>
        <ul className="insights-frustration">
          <li>
            Rage clicks: {frustration.rageClicks} in {link(frustration.sessionsWithRageClicks, 'sessions with rage clicks', { hasRageClicks: true })} sessions
          </li>
          <li>
            Dead clicks: {frustration.deadClicks} in {link(frustration.sessionsWithDeadClicks, 'sessions with dead clicks', { hasDeadClicks: true })} sessions
          </li>
          {/* Older cached answers have neither of these two. */}
          <li>
            Quick backs: {frustration.quickBacks ?? 0} in {link(frustration.sessionsWithQuickBacks ?? 0, 'sessions with quick backs', { hasQuickBacks: true })}{' '}
            sessions
          </li>
          <li>
            Excessive scrolling: {frustration.excessiveScrolls ?? 0} in{' '}
            {link(frustration.sessionsWithExcessiveScrolling ?? 0, 'sessions with excessive scrolling', { hasExcessiveScrolling: true })} sessions
          </li>
          <li>
            Errors: {frustration.errors} in {link(frustration.sessionsWithErrors, 'sessions with errors', { hasErrors: true })} sessions
          </li>
          <li>
            Failed requests: {frustration.failedRequests} in{' '}
            {link(frustration.sessionsWithFailedRequests, 'sessions with failed requests', { hasFailedRequests: true })} sessions
          </li>
        </ul>
        <FrustrationTrend insights={insights} />
      </section>
      <PagesTable campaignId={campaignId} insights={insights} range={range} />
      {/* Older cached answers have no errors. */}
      <ErrorsTable campaignId={campaignId} errors={insights.errors ?? []} range={range} />
      <div className="insights-grid">
        {table(
          'Countries',
          'Country',
          top(
            'country',
            insights.countries,
            (r: Insights['countries'][number]) => r.countryCode,
            (code) => ({ country: code }),
            (code) => `${flag(code)} ${insights.countries.find((c) => c.countryCode === code)?.country ?? code}`,
          ),
        )}
        {table(
          'Devices',
          'Device',
          top(
            'device',
            insights.devices,
            (r: Insights['devices'][number]) => r.device,
            (device) => ({ device: device as SessionFilters['device'] }),
          ),
        )}
        {table(
          'Browsers',
          'Browser',
          top(
            'browser',
            insights.browsers,
            (r: Insights['browsers'][number]) => r.browser,
            (browser) => ({ browser }),
          ),
        )}
        {table(
          'Operating systems',
          'OS',
          top(
            'os',
            insights.os,
            (r: Insights['os'][number]) => r.os,
            (os) => ({ os }),
          ),
        )}
        {table(
          'Referrers',
          'Referrer',
          top(
            null,
            insights.referrers,
            (r: Insights['referrers'][number]) => r.referrer ?? DIRECT_REFERRER,
            (referrer) => ({ referrer }),
          ),
        )}
        {table(
          'Screens',
          'Screen',
          top(
            'screen',
            insights.screens,
            (r: Insights['screens'][number]) => r.screen,
            (screen) => ({ screen: screen.replace('×', 'x') }),
          ),
        )}
      </div>
      {/* Older cached answers have no UTM campaigns. */}
      <UtmTable campaignId={campaignId} rows={insights.utm ?? []} range={range} />
    </>
  );
}

function Stat({ label, tone = '', children }: { label: string; tone?: string; children: ReactNode }) {
  return (
    <div className={`card stat ${tone}`}>
      <span className="stat-label">{label}</span>
      <span className="stat-value">{children}</span>
    </div>
  );
}
