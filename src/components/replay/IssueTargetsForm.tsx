import { useEffect, useRef, useState } from 'react';
import { Field } from '../FormField.js';
import type { IssueTargets, Tracker } from '../../lib/issueLinks.js';
import { readTargets, TARGET_EXAMPLES, TARGET_FIELDS, TARGET_LABELS, type TargetField } from '../../lib/issueTargets.js';

// The campaign's issue trackers, typed once: where "Create issue" opens a new issue. Shown the
// first time a tracker without its target is picked (its field focused), or from the menu.

const FIRST_FIELD: Record<Tracker, TargetField> = { github: 'github', gitlab: 'gitlab', jira: 'jiraSite', linear: 'linearTeam' };

const HELP: Record<TargetField, string> = {
  github: `Like ${TARGET_EXAMPLES.github}.`,
  gitlab: `Like ${TARGET_EXAMPLES.gitlab}; a self-managed GitLab's address works too.`,
  jiraSite: `Like ${TARGET_EXAMPLES.jiraSite}.`,
  jiraProject: 'Jira’s prefilled links name a project by its number; without it Jira asks for the project.',
  linearTeam: `Like ${TARGET_EXAMPLES.linearTeam}; without it Linear asks for the team.`,
};

const asForm = (targets: IssueTargets): Record<TargetField, string> =>
  Object.fromEntries(TARGET_FIELDS.map((field) => [field, targets[field] ?? ''])) as Record<TargetField, string>;

export function IssueTargetsForm({
  targets,
  tracker,
  onSave,
  onCancel,
}: {
  targets: IssueTargets;
  /** The tracker picked (its field takes the focus); none: the form was asked for. */
  tracker?: Tracker;
  onSave(targets: IssueTargets): void;
  onCancel(): void;
}) {
  const [form, setForm] = useState(() => asForm(targets));
  const [problems, setProblems] = useState<Partial<Record<TargetField, string>>>({});
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);
  const focused = tracker ? FIRST_FIELD[tracker] : 'github';
  return (
    <section className="card share-panel issue-targets" aria-labelledby="issue-targets-title">
      <h2 id="issue-targets-title" className="issue-targets-title">
        Issue trackers for this campaign
      </h2>
      <p className="small muted">Kept on this device. &quot;Create issue&quot; opens the tracker&apos;s new-issue page, filled in: no token is needed.</p>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const read = readTargets(form);
          setProblems(read.problems);
          if (Object.keys(read.problems).length === 0) onSave(read.targets);
        }}
      >
        <div className="issue-targets-fields">
          {TARGET_FIELDS.map((field) => (
            <Field key={field} id={`issue-target-${field}`} label={TARGET_LABELS[field]} help={HELP[field]} error={problems[field]}>
              <input
                id={`issue-target-${field}`}
                ref={field === focused ? first : undefined}
                className="input"
                type="text"
                autoComplete="off"
                spellCheck={false}
                maxLength={300}
                placeholder={TARGET_EXAMPLES[field]}
                value={form[field]}
                onChange={(event) => setForm({ ...form, [field]: event.target.value })}
              />
            </Field>
          ))}
        </div>
        <div className="actions">
          <button type="submit" className="button button-primary">
            Save trackers
          </button>
          <button type="button" className="button button-secondary" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </form>
    </section>
  );
}
