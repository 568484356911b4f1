import type { ReactNode } from 'react';

/** The one row a table shows when it has nothing to list. */
export function EmptyRow({ columns, children }: { columns: number; children: ReactNode }) {
  return (
    <tr>
      <td colSpan={columns} className="text-center text-body-secondary py-4">
        {children}
      </td>
    </tr>
  );
}
