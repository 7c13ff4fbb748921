import { Suspense, useState, type ReactNode } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import type { InsightsDays } from '../api/insights.js';
import { createFunnel, deleteFunnel, funnelKeys, funnelResultQueryOptions, funnelsQueryOptions, updateFunnel } from '../api/funnels.js';
import type { Funnel } from '../../common/api/funnels.js';
import type { SessionFilters } from '../lib/sessionFilters.js';
import { formatDurationMs } from '../lib/format.js';
import { stepLabel } from '../lib/funnelSteps.js';
import { FunnelBars } from '../components/funnels/FunnelBars.js';
import { FunnelForm, funnelError } from '../components/funnels/FunnelForm.js';
import { CampaignTabs } from '../components/CampaignTabs.js';
import { ErrorBox } from '../components/ErrorBox.js';
import { Spinner } from '../components/Spinner.js';
import { SessionsLink } from '../components/insights/SessionsLink.js';
import { useLiveRefresh } from '../lib/useLiveRefresh.js';
import { InsightsHeader } from '../components/insights/InsightsHeader.js';
import { InsightsTable } from '../components/insights/InsightsTable.js';

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
  const [editing, setEditing] = useState(false);
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
  if (editing) {
    return (
      <FunnelForm
        title={`Edit ${funnel.name}`}
        submitLabel="Save funnel"
        initial={funnel}
        onCancel={() => setEditing(false)}
        onSubmit={async (body) => {
          await updateFunnel(campaignId, funnel.id, body);
          await queryClient.invalidateQueries({ queryKey: funnelKeys.campaign(campaignId) });
          setEditing(false);
        }}
      />
    );
  }
  return (
    <section className="card" aria-label={funnel.name}>
      <div className="page-header">
        <h2 className="insights-heading">{funnel.name}</h2>
        <div className="actions">
          <button type="button" className="button button-secondary" onClick={() => setEditing(true)}>
            Edit funnel
          </button>
          <button type="button" className="button button-secondary" disabled={remove.isPending} onClick={() => remove.mutate()}>
            Delete funnel
          </button>
        </div>
      </div>
      {result.data && <FunnelBars steps={result.data.steps} labels={steps} />}
      {result.isError && !result.data && <ErrorBox title={funnelError(result.error)} />}
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
  return (
    <FunnelForm
      title="New funnel"
      submitLabel="Create funnel"
      onSubmit={async (body) => {
        await createFunnel(campaignId, body);
        await queryClient.invalidateQueries({ queryKey: funnelKeys.campaign(campaignId) });
      }}
    />
  );
}
