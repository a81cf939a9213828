import type { ImportRow } from './contact-rows';

const PREVIEW_ROWS = 5;

/** The first rows as they will be sent, so a wrong column shows before the upload. */
export function ImportPreview({ rows }: { rows: ImportRow[] }) {
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200" data-testid="import-preview">
      <table className="min-w-full divide-y divide-slate-200 text-sm" aria-label="Preview of the first rows">
        <thead className="bg-slate-50">
          <tr>
            {['Row', 'Email', 'Name', 'Subscribed'].map((title) => (
              <th key={title} scope="col" className="px-3 py-2 text-left text-xs font-semibold tracking-wide whitespace-nowrap text-slate-500 uppercase">
                {title}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.slice(0, PREVIEW_ROWS).map(({ row, contact }) => (
            <tr key={row} data-testid="preview-row">
              <td className="px-3 py-2 text-slate-500 tabular-nums">{row}</td>
              <td className="max-w-64 px-3 py-2 break-all text-slate-900">{contact.email}</td>
              <td className="max-w-48 px-3 py-2 break-words text-slate-700">{contact.name ?? <span className="text-slate-400">—</span>}</td>
              <td className="px-3 py-2 whitespace-nowrap text-slate-700">
                {contact.subscribed === undefined ? <span className="text-slate-400">Not given</span> : contact.subscribed ? 'Yes' : 'No'}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
