import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { ErrorAlert } from '../../components/error-alert';
import { StatBox } from '../../components/stat-box';
import { countOf } from '../../lib/format';
import { InvalidAddresses } from './invalid-addresses';
import type { UploadOutcome } from './suppression-upload';

/** What adding several addresses did: new entries, addresses already listed, and those refused with the reason. */
export function AddSuppressionsSummary({ outcome, onAnother, onDone }: { outcome: UploadOutcome; onAnother: () => void; onDone: () => void }) {
  const left = outcome.total - outcome.done;
  const complete = outcome.failure === null && !outcome.cancelled;
  return (
    <div className="space-y-4" data-testid="add-suppressions-summary" data-complete={complete}>
      {outcome.failure !== null && (
        <div className="space-y-2" data-testid="add-stopped">
          <ErrorAlert error={outcome.failure} fallbackTitle="Adding the addresses stopped" />
          <p className="text-sm text-slate-600">
            {countOf(left, 'address', 'addresses')} {left === 1 ? 'was' : 'were'} not sent. Adding the same list again is safe: addresses already on the
            list are counted, not changed.
          </p>
        </div>
      )}
      {outcome.cancelled && (
        <Alert tone="warning" title="Stopped">
          <span data-testid="add-stopped">{countOf(left, 'address', 'addresses')} {left === 1 ? 'was' : 'were'} not sent.</span>
        </Alert>
      )}
      {complete && (
        <p className="text-sm text-slate-600" role="status">
          Every address was handled. Entries already on the list keep their reason.
        </p>
      )}
      <dl className="grid grid-cols-3 gap-3">
        <StatBox label="Added" value={outcome.added} testId="summary-added" tone="good" />
        <StatBox label="Already listed" value={outcome.alreadySuppressed} testId="summary-already" />
        <StatBox label="Invalid" value={outcome.invalid.length} testId="summary-invalid" tone="bad" />
      </dl>
      {outcome.invalid.length > 0 && (
        <div className="space-y-2">
          <h3 className="text-sm font-semibold text-slate-900">Not added: not valid addresses</h3>
          <InvalidAddresses invalid={outcome.invalid} />
        </div>
      )}
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={onAnother}>
          Add more
        </Button>
        <Button onClick={onDone}>Done</Button>
      </div>
    </div>
  );
}
