import { useId, useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import type { FunnelBody } from '../../../common/api/funnels.js';
import { parseSteps, stepLabel } from '../../lib/funnelSteps.js';
import { HttpError } from '../../api/client.js';

const WINDOWS: [number, string][] = [
  [30 * 60_000, '30 minutes'],
  [3_600_000, '1 hour'],
  [86_400_000, '1 day'],
];
const DEFAULT_WITHIN_MS = 3_600_000;

export const funnelError = (error: unknown) =>
  error instanceof HttpError ? (error.serverMessage ?? error.message) : error instanceof Error ? error.message : String(error);

interface FunnelFormProps {
  /** The form's accessible name and heading ('New funnel', 'Edit Home to cart'). */
  title: string;
  submitLabel: string;
  /** The funnel being edited (its name, steps and window fill the fields). */
  initial?: FunnelBody;
  onSubmit(body: FunnelBody): Promise<unknown>;
  onCancel?(): void;
}

/** A funnel's name, its steps one a line (as its table labels them) and its window: for a new funnel and for editing one. */
export function FunnelForm({ title, submitLabel, initial, onSubmit, onCancel }: FunnelFormProps) {
  const id = useId();
  const [name, setName] = useState(initial?.name ?? '');
  const [steps, setSteps] = useState(initial ? initial.steps.map(stepLabel).join('\n') : '');
  const [withinMs, setWithinMs] = useState(initial?.withinMs ?? DEFAULT_WITHIN_MS);
  const save = useMutation({
    mutationFn: () => onSubmit({ name, withinMs, steps: parseSteps(steps) }),
    onSuccess: () => {
      if (initial) return;
      setName('');
      setSteps('');
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form className="card form" aria-label={title} onSubmit={submit}>
      <h2 className="insights-heading">{title}</h2>
      <div className="field">
        <label htmlFor={`${id}-name`}>Name</label>
        <input id={`${id}-name`} className="input" required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-steps`}>Steps, in order</label>
        <p id={`${id}-help`} className="help">
          One a line: a page (* stands for any characters), <code>click:</code> and an element&apos;s selector or text, or <code>event:</code> and a custom
          event&apos;s name. For example: <code>/product/*</code>, then <code>click: Add to cart</code>, then <code>event: checkout</code>.
        </p>
        <textarea
          id={`${id}-steps`}
          className="input"
          required
          rows={4}
          aria-describedby={`${id}-help`}
          placeholder={'/product/*\nclick: Add to cart\nevent: checkout'}
          value={steps}
          onChange={(e) => setSteps(e.target.value)}
        />
      </div>
      <div className="form-row">
        <div className="field">
          <label htmlFor={`${id}-within`}>Within</label>
          <select id={`${id}-within`} className="input" value={withinMs} onChange={(e) => setWithinMs(Number(e.target.value))}>
            {WINDOWS.map(([ms, label]) => (
              <option key={ms} value={ms}>
                {label}
              </option>
            ))}
          </select>
        </div>
      </div>
      {save.isError && <p role="alert">{funnelError(save.error)}</p>}
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={save.isPending}>
          {submitLabel}
        </button>
        {onCancel && (
          <button type="button" className="button button-secondary" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
