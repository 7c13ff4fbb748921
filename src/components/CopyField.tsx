import { useState } from 'react';

/** Something shown once to copy (an invite's link, an API key): a read-only field and a copy button. */
export function CopyField({ label, value, testId, copyLabel }: { label: string; value: string; testId: string; copyLabel: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard.writeText(value).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  };
  return (
    <div className="invite-link" role="status">
      <label>
        {label}
        <input className="input mono" readOnly value={value} data-testid={testId} onFocus={(event) => event.target.select()} />
      </label>
      <button type="button" className="button button-secondary" onClick={() => void copy()}>
        {copied ? 'Copied' : copyLabel}
      </button>
    </div>
  );
}
