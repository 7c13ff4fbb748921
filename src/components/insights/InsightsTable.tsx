import type { ReactNode } from 'react';

/**
 * The insights screens' table: a header row of `columns`, then the caller's rows. It scrolls
 * sideways inside its card when it is wider (a phone), never the whole page.
 */
export function InsightsTable({ columns, className, children }: { columns: ReactNode[]; className?: string; children: ReactNode }) {
  return (
    <div className="table-scroll">
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
    </div>
  );
}
