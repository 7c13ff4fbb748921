/** Label/value pairs in the two-column grid used by the session details and info panels. */
export function DetailsList({ rows }: { rows: [label: string, value: string][] }) {
  return (
    <dl className="details-list details-grid">
      {rows.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd className="break">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
