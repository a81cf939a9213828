import { Alert } from '../../../../components/alert';
import { Button } from '../../../../components/button';
import { ErrorAlert } from '../../../../components/error-alert';
import { StatBox } from '../../../../components/stat-box';
import { countOf } from '../../../../lib/format';
import type { SkippedRow } from './contact-rows';
import type { UploadOutcome } from './contact-upload';
import { SkippedRows } from './skipped-rows';

/**
 * How the import went: contacts created, updated, unchanged and rows skipped, with each skipped
 * row's line, address and reason (the file's own problems and the server's), and why it stopped
 * early if it did.
 */
export function ImportSummary({ outcome, fileSkipped, onAnother, onDone }: { outcome: UploadOutcome; fileSkipped: SkippedRow[]; onAnother: () => void; onDone: () => void }) {
  const skipped = [...fileSkipped, ...outcome.skipped];
  const stopped = outcome.failure !== null || outcome.cancelled;
  return (
    <div className="space-y-4" data-testid="import-summary" data-complete={!stopped}>
      {outcome.failure !== null && (
        <div className="space-y-2" data-testid="import-stopped">
          <ErrorAlert error={outcome.failure} fallbackTitle="The import stopped" />
          <p className="text-sm text-slate-600">
            {countOf(outcome.rowsLeft, 'row')} of the file {outcome.rowsLeft === 1 ? 'was' : 'were'} not imported. Importing the same file again is safe:
            contacts already stored are counted as unchanged.
          </p>
        </div>
      )}
      {outcome.cancelled && (
        <Alert tone="warning" title="Import stopped">
          <span data-testid="import-stopped">
            {countOf(outcome.rowsLeft, 'row')} of the file {outcome.rowsLeft === 1 ? 'was' : 'were'} not sent. Importing the same file again is safe.
          </span>
        </Alert>
      )}
      {!stopped && (
        <p className="text-sm text-slate-600" role="status">
          Import finished: every row of the file was handled.
        </p>
      )}
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        <StatBox label="Created" value={outcome.created} testId="import-created" tone="good" />
        <StatBox label="Updated" value={outcome.updated} testId="import-updated" />
        <StatBox label="Unchanged" value={outcome.unchanged} testId="import-unchanged" />
        <StatBox label="Skipped" value={skipped.length} testId="import-skipped" tone="bad" />
      </dl>
      {outcome.merged > 0 && (
        <p className="text-sm text-slate-600" data-testid="import-merged">
          {countOf(outcome.merged, 'row')} repeated an address of an earlier row and {outcome.merged === 1 ? 'was' : 'were'} merged into it: the later row
          wins.
        </p>
      )}
      {skipped.length > 0 && (
        <div className="space-y-2">
          <h3 className="text-sm font-semibold text-slate-900">Skipped rows</h3>
          <SkippedRows skipped={skipped} />
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
