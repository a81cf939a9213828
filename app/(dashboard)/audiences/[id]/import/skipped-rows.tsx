import { countOf } from '../../../../lib/format';
import { firstSkipped, type SkippedRow } from './contact-rows';

/** Rows left out and why, in file order: the first 100, then how many more (`beyond`: rows left out that are not in `skipped`). */
export function SkippedRows({ skipped, limit = 100, beyond = 0 }: { skipped: SkippedRow[]; limit?: number; beyond?: number }) {
  const listed = firstSkipped(skipped, limit);
  const shown = listed.shown;
  const more = listed.more + beyond;
  return (
    <div data-testid="skipped-rows">
      <div className="max-h-64 overflow-y-auto rounded-lg border border-slate-200">
        <table className="min-w-full divide-y divide-slate-200 text-sm" aria-label="Skipped rows">
          <thead className="sticky top-0 bg-slate-50">
            <tr>
              {['Row', 'Email', 'Reason'].map((title) => (
                <th key={title} scope="col" className="px-3 py-2 text-left text-xs font-semibold tracking-wide whitespace-nowrap text-slate-500 uppercase">
                  {title}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {shown.map((entry, index) => (
              <tr key={`${entry.row}-${index}`} data-testid="skipped-row" data-row={entry.row}>
                <td className="px-3 py-2 align-top text-slate-500 tabular-nums">{entry.row}</td>
                <td className="max-w-56 px-3 py-2 align-top break-all text-slate-900">{entry.email || <span className="text-slate-400">(empty)</span>}</td>
                <td className="px-3 py-2 align-top break-words text-red-700">{entry.error}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {more > 0 && (
        <p className="mt-1.5 text-xs text-slate-500" data-testid="skipped-more">
          and {countOf(more, 'more row')}
        </p>
      )}
    </div>
  );
}
