import { Bar } from '../../../../components/bar';
import { Button } from '../../../../components/button';
import { ConfirmedConsentNote } from './confirmed-consent-note';
import { Spinner } from '../../../../components/spinner';
import { countOf, formatCount } from '../../../../lib/format';
import { progressOf, type ContactImport } from './import-job';

/**
 * The import under way: the file being sent, then the rows the background import has read of all
 * and the batch it is on, as GET /contacts/imports/{id} says. It goes on without this page.
 */
export function ImportProgress({ job, onClose }: { job: ContactImport | null; onClose: () => void }) {
  if (!job) {
    return (
      <div className="flex items-center gap-2 text-sm text-slate-600" data-testid="import-uploading" role="status">
        <Spinner className="size-4" /> Sending the file…
      </div>
    );
  }
  const { total, done, batch, batches } = progressOf(job);
  const percent = total === 0 ? 100 : Math.floor((done / total) * 100);
  return (
    <div className="space-y-4" data-testid="import-progress" data-status={job.status}>
      <div>
        <div className="mb-1.5 flex items-baseline justify-between gap-3 text-sm">
          <span className="font-medium text-slate-900" data-testid="import-progress-rows">
            {formatCount(done)} of {countOf(total, 'row')}
          </span>
          <span className="text-slate-500" data-testid="import-progress-batches">
            {job.status === 'queued' ? 'Waiting to start' : `Batch ${formatCount(batch)} of ${formatCount(batches)}`}
          </span>
        </div>
        <Bar label="Import progress" max={total} now={done} valueText={`${formatCount(done)} of ${formatCount(total)} rows`} parts={[{ percent, fill: 'bg-indigo-600' }]} />
      </div>
      <ConfirmedConsentNote job={job} />
      <p className="text-sm text-slate-600" aria-live="polite">
        {formatCount(job.counts.created)} created, {formatCount(job.counts.updated)} updated, {formatCount(job.counts.failed)} not imported so far. The import
        runs on the server: you may close this and come back later.
      </p>
      <div className="flex justify-end">
        <Button variant="secondary" onClick={onClose}>
          Close
        </Button>
      </div>
    </div>
  );
}
