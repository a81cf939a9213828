import { countOf } from '../../lib/format';
import type { InvalidAddress } from './types';

/** The addresses the server refused, as typed, with its reason: the first 100, then how many more. */
export function InvalidAddresses({ invalid, limit = 100 }: { invalid: InvalidAddress[]; limit?: number }) {
  const shown = invalid.slice(0, limit);
  const more = invalid.length - shown.length;
  return (
    <div data-testid="invalid-addresses">
      <div className="max-h-64 overflow-y-auto rounded-lg border border-slate-200">
        <table className="min-w-full divide-y divide-slate-200 text-sm" aria-label="Invalid addresses">
          <thead className="sticky top-0 bg-slate-50">
            <tr>
              {['Address', 'Reason'].map((title) => (
                <th key={title} scope="col" className="px-3 py-2 text-left text-xs font-semibold tracking-wide whitespace-nowrap text-slate-500 uppercase">
                  {title}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {shown.map((entry, index) => (
              <tr key={`${index}-${entry.email}`} data-testid="invalid-address" data-email={entry.email}>
                <td className="max-w-56 px-3 py-2 align-top break-all text-slate-900">{entry.email}</td>
                <td className="px-3 py-2 align-top break-words text-red-700">{entry.error}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {more > 0 && (
        <p className="mt-1.5 text-xs text-slate-500" data-testid="invalid-more">
          and {countOf(more, 'more address', 'more addresses')}
        </p>
      )}
    </div>
  );
}
