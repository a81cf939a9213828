import { DataTable } from '../../../components/data-table';

/** A titled table of name/value pairs (custom headers, tags), or a line saying there are none. */
export function KeyValueSection({ title, rows, empty, testId }: { title: string; rows: Array<[string, string]>; empty: string; testId: string }) {
  return (
    <section aria-label={title} className="space-y-3" data-testid={testId}>
      <h2 className="text-base font-semibold text-slate-900">{title}</h2>
      {rows.length === 0 ? (
        <p className="text-sm text-slate-500">{empty}</p>
      ) : (
        <DataTable label={title} columns={['Name', 'Value']} dense>
          {rows.map(([name, value], index) => (
            <tr key={`${name}-${index}`} className="align-top" data-testid={`${testId}-row`}>
              <td className="py-2.5 pr-3 pl-5 font-mono text-xs whitespace-nowrap text-slate-900">{name}</td>
              <td className="py-2.5 pr-5 pl-3 font-mono text-xs break-all text-slate-700">{value}</td>
            </tr>
          ))}
        </DataTable>
      )}
    </section>
  );
}
