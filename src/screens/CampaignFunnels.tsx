import { Suspense, useState, type FormEvent, type ReactNode } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { HttpError } from '../api/client.js';
import type { InsightsDays } from '../api/insights.js';
import { createFunnel, deleteFunnel, funnelKeys, funnelResultQueryOptions, funnelsQueryOptions } from '../api/funnels.js';
import type { Funnel } from '../../common/api/funnels.js';
import type { SessionFilters } from '../lib/sessionFilters.js';
import { formatDurationMs } from '../lib/format.js';
import { parseSteps, stepLabel } from '../lib/funnelSteps.js';
import { CampaignTabs } from '../components/CampaignTabs.js';
import { ErrorBox } from '../components/ErrorBox.js';
import { Spinner } from '../components/Spinner.js';
import { SessionsLink } from '../components/insights/SessionsLink.js';
import { useLiveRefresh } from '../lib/useLiveRefresh.js';
import { InsightsHeader } from '../components/insights/InsightsHeader.js';
import { InsightsTable } from '../components/insights/InsightsTable.js';

const reason = (error: unknown) =>
  error instanceof HttpError ? (error.serverMessage ?? error.message) : error instanceof Error ? error.message : String(error);
const WINDOWS: [number, string][] = [
  [30 * 60_000, '30 minutes'],
  [3_600_000, '1 hour'],
  [86_400_000, '1 day'],
];

interface Props {
  campaignId: string;
  days: InsightsDays;
  onDays: (days: InsightsDays) => void;
}

/**
 * The campaign's funnels: each one's steps with the sessions entering them, and a form for a new one.
 * Its route's loader has the funnels in the cache first (offline, the persisted copy).
 */
export function CampaignFunnels({ campaignId, days, onDays }: Props) {
  useLiveRefresh(campaignId, funnelKeys.campaign(campaignId));
  return (
    <FunnelsPage campaignId={campaignId} days={days} onDays={onDays}>
      <Suspense fallback={<Spinner label="Loading funnels" />}>
        <FunnelList campaignId={campaignId} days={days} />
      </Suspense>
      <NewFunnel campaignId={campaignId} />
    </FunnelsPage>
  );
}

/** The route's errorComponent: the page with the spec's error text where the funnels go. */
export function CampaignFunnelsError(props: Props) {
  return (
    <FunnelsPage {...props}>
      <ErrorBox title="Failed to fetch funnels" />
    </FunnelsPage>
  );
}

function FunnelsPage({ campaignId, days, onDays, children }: Props & { children: ReactNode }) {
  return (
    <div className="page insights-page">
      <InsightsHeader campaignId={campaignId} title="Funnels" range={{ id: 'funnels-range', days, onDays }} />
      <CampaignTabs campaignId={campaignId} current="funnels" />
      {children}
    </div>
  );
}

function FunnelList({ campaignId, days }: { campaignId: string; days: InsightsDays }) {
  const { data } = useSuspenseQuery(funnelsQueryOptions(campaignId));
  if (data.funnels.length === 0) {
    return <p className="muted">No funnels yet: name the steps a visitor goes through, in order — pages, clicks and custom events.</p>;
  }
  return data.funnels.map((funnel) => <FunnelCard key={funnel.id} campaignId={campaignId} funnel={funnel} days={days} />);
}

function FunnelCard({ campaignId, funnel, days }: { campaignId: string; funnel: Funnel; days: InsightsDays }) {
  const queryClient = useQueryClient();
  const result = useQuery({ ...funnelResultQueryOptions(campaignId, funnel.id, days), placeholderData: keepPreviousData });
  const remove = useMutation({
    mutationFn: () => deleteFunnel(campaignId, funnel.id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: funnelKeys.campaign(campaignId) }),
  });
  const range: SessionFilters = result.data ? { from: result.data.from, to: result.data.to } : {};
  const link = (count: number, label: string, filters: SessionFilters) => (
    <SessionsLink campaignId={campaignId} filters={{ ...range, funnel: funnel.id, ...filters }} label={`${count} ${label}`}>
      {count}
    </SessionsLink>
  );
  const steps = funnel.steps.map(stepLabel);
  const last = steps.length;
  return (
    <section className="card" aria-label={funnel.name}>
      <div className="page-header">
        <h2 className="insights-heading">{funnel.name}</h2>
        <button type="button" className="button button-secondary" disabled={remove.isPending} onClick={() => remove.mutate()}>
          Delete funnel
        </button>
      </div>
      {result.isError && !result.data && <ErrorBox title={reason(result.error)} />}
      {result.data && (
        <InsightsTable columns={['Step', 'Sessions', 'Conversion', 'Dropped off', 'Median time from the step before']}>
          {result.data.steps.map((row, i) => (
            <tr key={i}>
              <th scope="row">
                {i + 1}. {steps[i]}
              </th>
              <td>{link(row.sessions, `sessions reached step ${i + 1}`, i + 1 === last ? { outcome: 'converted' } : { step: i + 1 })}</td>
              <td>{Math.round(row.conversion * 1000) / 10}%</td>
              <td>{i === 0 ? '–' : link(row.droppedOff, `sessions dropped off after step ${i}`, { step: i, outcome: 'dropped' })}</td>
              <td>{row.medianMsFromPrevious === null ? '–' : formatDurationMs(row.medianMsFromPrevious)}</td>
            </tr>
          ))}
        </InsightsTable>
      )}
    </section>
  );
}

function NewFunnel({ campaignId }: { campaignId: string }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [steps, setSteps] = useState('');
  const [withinMs, setWithinMs] = useState(3_600_000);
  const create = useMutation({
    mutationFn: () => createFunnel(campaignId, { name, withinMs, steps: parseSteps(steps) }),
    onSuccess: () => {
      setName('');
      setSteps('');
      return queryClient.invalidateQueries({ queryKey: funnelKeys.campaign(campaignId) });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <form className="card form" aria-label="New funnel" onSubmit={submit}>
      <h2 className="insights-heading">New funnel</h2>
      <div className="field">
        <label htmlFor="funnel-name">Name</label>
        <input id="funnel-name" className="input" required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor="funnel-steps">Steps, in order</label>
        <p id="funnel-steps-help" className="help">
          One a line: a page (* stands for any characters), <code>click:</code> and an element&apos;s selector or text, or <code>event:</code> and a custom
          event&apos;s name. For example: <code>/product/*</code>, then <code>click: Add to cart</code>, then <code>event: checkout</code>.
        </p>
        <textarea
          id="funnel-steps"
          className="input"
          required
          rows={4}
          aria-describedby="funnel-steps-help"
          placeholder={'/product/*\nclick: Add to cart\nevent: checkout'}
          value={steps}
          onChange={(e) => setSteps(e.target.value)}
        />
      </div>
      <div className="form-row">
        <div className="field">
          <label htmlFor="funnel-within">Within</label>
          <select id="funnel-within" className="input" value={withinMs} onChange={(e) => setWithinMs(Number(e.target.value))}>
            {WINDOWS.map(([ms, label]) => (
              <option key={ms} value={ms}>
                {label}
              </option>
            ))}
          </select>
        </div>
      </div>
      {create.isError && <p role="alert">{reason(create.error)}</p>}
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={create.isPending}>
          Create funnel
        </button>
      </div>
    </form>
  );
}
