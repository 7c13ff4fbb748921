import { cloneElement, type ReactElement } from 'react';

/** A labelled form field with its help text, and a note and an error when it has them. */
export function Field({
  id,
  label,
  help,
  error,
  errorDetail,
  note,
  children,
}: {
  id: string;
  label: string;
  help: string;
  error?: string;
  /** Said after the error: which part of the value is wrong. */
  errorDetail?: string | null;
  /** Said as the value changes: what will be made of it. */
  note?: string | null;
  children: ReactElement<Record<string, unknown>>;
}) {
  // Screen readers hear the help text, the note and the error with the input.
  const described = [`${id}-help`, note && `${id}-note`, error && `${id}-error`].filter(Boolean).join(' ');
  const input = cloneElement(children, {
    'aria-describedby': described,
    'aria-invalid': error ? true : undefined,
  });
  return (
    <div className={`field${error ? ' field-invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {input}
      <p className="help" id={`${id}-help`}>
        {help}
      </p>
      {note && (
        <p className="help field-note" id={`${id}-note`} role="status">
          {note}
        </p>
      )}
      {error && (
        <div className="field-error" id={`${id}-error`} role="alert">
          <p>{error}</p>
          {errorDetail && <p>{errorDetail}</p>}
        </div>
      )}
    </div>
  );
}

/** A select of `options` ([value, label], in order); Field gives it its description. */
export function Choices({
  id,
  options,
  value,
  disabled,
  onChange,
  ...described
}: {
  id: string;
  options: readonly (readonly [string, string])[];
  value: string;
  disabled: boolean;
  onChange: (value: string) => void;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean;
}) {
  return (
    <select id={id} className="input" value={value} disabled={disabled} onChange={(e) => onChange(e.target.value)} {...described}>
      {options.map(([choice, label]) => (
        <option key={choice} value={choice}>
          {label}
        </option>
      ))}
    </select>
  );
}

/** A checkbox with its label, and its help text under it. */
export function CheckboxField({
  id,
  label,
  help,
  checked,
  disabled,
  onChange,
}: {
  id: string;
  label: string;
  help: string;
  checked: boolean;
  disabled: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <div className="field">
      <label className="checkbox" htmlFor={id}>
        <input id={id} type="checkbox" aria-describedby={`${id}-help`} checked={checked} disabled={disabled} onChange={(e) => onChange(e.target.checked)} />{' '}
        {label}
      </label>
      <p className="help" id={`${id}-help`}>
        {help}
      </p>
    </div>
  );
}
