import { Bar } from '../../../../components/bar';
import { Button } from '../../../../components/button';
import { countOf, formatCount } from '../../../../lib/format';
import type { UploadProgress } from './contact-upload';

/** The upload under way: rows answered for out of all, the batch, and a way to stop after it. */
export function ImportProgress({ progress, stopping, onStop }: { progress: UploadProgress; stopping: boolean; onStop: () => void }) {
  const percent = progress.rowsTotal === 0 ? 100 : Math.floor((progress.rowsDone / progress.rowsTotal) * 100);
  const current = Math.min(progress.batchesDone + 1, progress.batchesTotal);
  return (
    <div className="space-y-4" data-testid="import-progress">
      <div>
        <div className="mb-1.5 flex items-baseline justify-between gap-3 text-sm">
          <span className="font-medium text-slate-900" data-testid="import-progress-rows">
            {formatCount(progress.rowsDone)} of {countOf(progress.rowsTotal, 'row')}
          </span>
          <span className="text-slate-500" data-testid="import-progress-batches">
            Batch {formatCount(current)} of {formatCount(progress.batchesTotal)}
          </span>
        </div>
        <Bar
          label="Import progress"
          max={progress.rowsTotal}
          now={progress.rowsDone}
          valueText={`${formatCount(progress.rowsDone)} of ${formatCount(progress.rowsTotal)} rows`}
          parts={[{ percent, fill: 'bg-indigo-600' }]}
        />
      </div>
      <p className="text-sm text-slate-600" aria-live="polite">
        {formatCount(progress.created)} created, {formatCount(progress.updated)} updated, {formatCount(progress.unchanged)} unchanged so far.
        {stopping ? ' Stopping after this batch…' : ' Keep this page open until the import finishes.'}
      </p>
      <div className="flex justify-end">
        <Button variant="secondary" onClick={onStop} disabled={stopping}>
          Stop after this batch
        </Button>
      </div>
    </div>
  );
}
