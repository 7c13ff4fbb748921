import type { ReactNode } from 'react';

/** The insights screens' table: a header row of `columns`, then the caller's rows. */
export function InsightsTable({ columns, className, children }: { columns: ReactNode[]; className?: string; children: ReactNode }) {
  return (
    <table className={className ? `insights-table ${className}` : 'insights-table'}>
      <thead>
        <tr>
          {columns.map((column, i) => (
            <th key={i} scope="col">
              {column}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}
