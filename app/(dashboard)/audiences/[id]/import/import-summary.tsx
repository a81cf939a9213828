import { Button } from '../../../../components/button';
import { ConfirmedConsentNote } from './confirmed-consent-note';
import { ErrorAlert } from '../../../../components/error-alert';
import { StatBox } from '../../../../components/stat-box';
import { countOf } from '../../../../lib/format';
import { failedRows, failureOf, progressOf, type ContactImport } from './import-job';
import { SkippedRows } from './skipped-rows';

/**
 * How the import went: contacts created and updated, rows not imported with each one's line,
 * address and reason (the first 100), and why it stopped early if it did.
 */
export function ImportSummary({ job, onAnother, onDone }: { job: ContactImport; onAnother: () => void; onDone: () => void }) {
  const { total, done } = progressOf(job);
  const failure = failureOf(job);
  const listed = failedRows(job);
  return (
    <div className="space-y-4" data-testid="import-summary" data-complete={job.status === 'completed'}>
      {failure !== null && (
        <div className="space-y-2" data-testid="import-stopped">
          <ErrorAlert error={failure} fallbackTitle="The import stopped" />
          <p className="text-sm text-slate-600">
            {countOf(total - done, 'row')} of the file {total - done === 1 ? 'was' : 'were'} not imported. Importing the same file again is safe: contacts
            already stored are updated, not added twice.
          </p>
        </div>
      )}
      {failure === null && (
        <p className="text-sm text-slate-600" role="status">
          Import finished: every row of the file was handled.
        </p>
      )}
      <ConfirmedConsentNote job={job} />
      <dl className="grid grid-cols-3 gap-3">
        <StatBox label="Created" value={job.counts.created} testId="import-created" tone="good" />
        <StatBox label="Updated" value={job.counts.updated} testId="import-updated" />
        <StatBox label="Not imported" value={job.counts.failed} testId="import-skipped" tone="bad" />
      </dl>
      {job.counts.failed > 0 && (
        <div className="space-y-2">
          <h3 className="text-sm font-semibold text-slate-900">Rows not imported</h3>
          <SkippedRows skipped={listed} beyond={job.counts.failed - listed.length} />
        </div>
      )}
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={onAnother}>
          Import another file
        </Button>
        <Button onClick={onDone}>Done</Button>
      </div>
    </div>
  );
}
