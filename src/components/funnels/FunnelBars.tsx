import type { FunnelResult } from '../../../common/api/funnels.js';

/**
 * The funnel drawn: a bar a step, as long as its share of the first step's sessions, with the
 * count, the share and how many dropped off since the step before. The table below keeps the
 * figures and their links.
 */
export function FunnelBars({ steps, labels }: { steps: FunnelResult['steps']; labels: string[] }) {
  const first = steps[0]?.sessions ?? 0;
  return (
    <ol className="funnel-bars" aria-label="Sessions at each step">
      {steps.map((step, i) => {
        const share = first === 0 ? 0 : step.sessions / first;
        return (
          <li key={i} className="funnel-bar-row">
            <span className="funnel-bar-label">
              {i + 1}. {labels[i]}
            </span>
            <span className="funnel-bar-track" aria-hidden="true">
              <span className="funnel-bar-fill" style={{ width: `${share * 100}%` }} />
            </span>
            <span className="funnel-bar-figures">
              {step.sessions} {step.sessions === 1 ? 'session' : 'sessions'} · {Math.round(share * 1000) / 10}%
              {i > 0 && step.droppedOff > 0 && <span className="muted"> · {step.droppedOff} dropped off</span>}
            </span>
          </li>
        );
      })}
    </ol>
  );
}
