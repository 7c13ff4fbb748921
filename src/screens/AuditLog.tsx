import { cloneElement, useId, useState, type ReactElement } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { auditQueryOptions, workspacePaths, type AuditFilter, type Member } from '../api/workspaces.js';
import { ErrorBox } from '../components/ErrorBox.js';
import { teamErrorMessage } from './teamErrors.js';
import { AUDIT_ACTIONS } from '../../common/teams.js';

// The workspace's audit log for owners and admins (audit.read): newest first, narrowed by person,
// kind and dates, and exported whole (with the same filters) as JSON Lines.

const DAY_MS = 86_400_000;
/** A date input's day as epoch ms at its local start; `end` the start of the next day. */
function dayStart(value: string, end = false): number | undefined {
  if (!value) return undefined;
  const [year, month, day] = value.split('-').map(Number);
  const start = new Date(year, month - 1, day).getTime();
  return Number.isFinite(start) ? start + (end ? DAY_MS : 0) : undefined;
}

/** A filter's label over its control (the control gets the id). */
function Filter({ id, label, children }: { id: string; label: string; children: ReactElement<{ id?: string }> }) {
  return (
    <div className="invite-field">
      <label htmlFor={id}>{label}</label>
      {cloneElement(children, { id })}
    </div>
  );
}

const changeText = (value: Record<string, unknown> | undefined) => (value ? JSON.stringify(value) : '');

export function AuditLog({ workspaceId, members }: { workspaceId: string; members: Member[] }) {
  const [actor, setActor] = useState('');
  const [action, setAction] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const filter: AuditFilter = { actor: actor || undefined, action: action || undefined, from: dayStart(from), to: dayStart(to, true) };
  const entries = useQuery({ ...auditQueryOptions(workspaceId, filter), placeholderData: keepPreviousData });
  const id = useId();
  const emails = [...new Set(members.flatMap((member) => (member.email ? [member.email] : [])))];

  return (
    <section className="card members-section" aria-labelledby="audit-title">
      <div className="audit-head">
        <h2 id="audit-title">Audit log</h2>
        <a className="button button-secondary button-small" href={workspacePaths.audit(workspaceId, filter, 'jsonl')} download>
          Export JSON Lines
        </a>
      </div>
      <div className="audit-filters">
        <Filter id={`${id}-actor`} label="Person">
          <select className="input" value={actor} onChange={(event) => setActor(event.target.value)}>
            <option value="">Everyone</option>
            {emails.map((email) => (
              <option key={email} value={email}>
                {email}
              </option>
            ))}
          </select>
        </Filter>
        <Filter id={`${id}-action`} label="Kind">
          <select className="input" value={action} onChange={(event) => setAction(event.target.value)}>
            <option value="">All kinds</option>
            {AUDIT_ACTIONS.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </Filter>
        <Filter id={`${id}-from`} label="From">
          <input className="input" type="date" value={from} onChange={(event) => setFrom(event.target.value)} />
        </Filter>
        <Filter id={`${id}-to`} label="To">
          <input className="input" type="date" value={to} onChange={(event) => setTo(event.target.value)} />
        </Filter>
      </div>
      {entries.error && <ErrorBox title="Failed to load the audit log." message={teamErrorMessage(entries.error)} />}
      {entries.isSuccess && entries.data.length === 0 && <p className="muted">No entries match.</p>}
      {entries.data && entries.data.length > 0 && (
        <div className="audit-table-wrap" tabIndex={0} role="region" aria-label="Audit entries">
          <table className="audit-table">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">What</th>
                <th scope="col">On</th>
                <th scope="col">Change</th>
                <th scope="col">Address</th>
              </tr>
            </thead>
            <tbody>
              {entries.data.map((entry, i) => (
                <tr key={`${entry.at}-${i}`} data-testid="audit-entry">
                  <td>{new Date(entry.at).toLocaleString()}</td>
                  <td>
                    {entry.actor_email ?? '—'}
                    {entry.api_key && <div className="muted small">with API key {entry.api_key.prefix}…</div>}
                  </td>
                  <td className="mono">{entry.action}</td>
                  <td className="mono break">{entry.target}</td>
                  <td className="mono small break">
                    {entry.before && <div>before: {changeText(entry.before)}</div>}
                    {entry.after && <div>after: {changeText(entry.after)}</div>}
                  </td>
                  <td className="mono small">{entry.ip ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
