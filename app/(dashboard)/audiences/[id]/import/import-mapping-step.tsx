import { Alert } from '../../../../components/alert';
import { Button } from '../../../../components/button';
import { CheckboxField } from '../../../../components/field';
import { countOf } from '../../../../lib/format';
import { ColumnMapping, type ColumnChoice } from './column-mapping';
import type { ImportRow, SkippedRow } from './contact-rows';
import { ImportPreview } from './import-preview';
import { SkippedRows } from './skipped-rows';
import type { CsvFile, useCsvFile } from './use-csv-file';

interface View {
  columns: ColumnChoice[];
  dataRows: number;
  mapped: { rows: ImportRow[]; skipped: SkippedRow[] } | null;
}

const DELIMITER_NAMES: Record<string, string> = { ',': 'commas', ';': 'semicolons', '\t': 'tabs' };

/** The second step: the file read, its columns mapped, the first rows previewed, and the upload started. */
export function ImportMappingStep({
  csv,
  file,
  view,
  onBack,
  confirmedConsent,
  onConfirmedConsentChange,
  onImport,
}: {
  csv: ReturnType<typeof useCsvFile>;
  file: CsvFile;
  view: View;
  onBack: () => void;
  confirmedConsent: boolean;
  onConfirmedConsentChange: (confirmed: boolean) => void;
  onImport: () => void;
}) {
  const rows = view.mapped?.rows ?? [];
  const skipped = view.mapped?.skipped ?? [];
  return (
    <div className="space-y-5" data-testid="import-mapping">
      <p className="text-sm text-slate-600" data-testid="import-file">
        <strong className="font-medium break-all text-slate-900">{file.name}</strong>: {countOf(view.dataRows, 'row')}, {countOf(view.columns.length, 'column')}{' '}
        separated by {DELIMITER_NAMES[file.parsed.delimiter]}.
      </p>
      {file.undecodable && (
        <Alert tone="warning" title="Some characters could not be read">
          The file is not UTF-8, so the import would refuse it. In your spreadsheet, save it as &quot;CSV UTF-8&quot; and choose it again.
        </Alert>
      )}
      {file.parsed.unterminatedQuote && (
        <Alert tone="warning" title="A quoted value is never closed">
          The rest of the file after its opening quote reads as one value, so the import would refuse it. Check the quotes in the file.
        </Alert>
      )}
      <ColumnMapping columns={view.columns} mapping={csv.mapping} onChange={csv.setMapping} hasHeader={csv.hasHeader} onHeaderChange={csv.changeHeader} />

      {view.mapped === null && (
        <p className="text-sm text-slate-500" data-testid="import-choose-email">
          Choose the column that holds the email addresses.
        </p>
      )}
      {view.mapped && rows.length > 0 && (
        <div className="space-y-2">
          <h3 className="text-sm font-semibold text-slate-900">Preview</h3>
          <ImportPreview rows={rows} />
        </div>
      )}
      {view.mapped && (
        <p className="text-sm text-slate-700" data-testid="import-ready">
          {countOf(rows.length, 'row')} to import
          {skipped.length > 0 && `, ${countOf(skipped.length, 'row')} will be skipped`}. The import checks every address on the server and lists the rows it
          leaves out at the end.
        </p>
      )}
      {skipped.length > 0 && (
        <details className="text-sm" data-testid="file-skipped">
          <summary className="cursor-pointer font-medium text-slate-700">Rows that will be skipped ({skipped.length})</summary>
          <div className="mt-2">
            <SkippedRows skipped={skipped} />
          </div>
        </details>
      )}
      <CheckboxField
        label="Everyone in this file confirmed their subscription (double opt-in)"
        checked={confirmedConsent}
        onChange={(event) => onConfirmedConsentChange(event.target.checked)}
        description="Tick only if you hold that proof for every row. Each imported contact's consent history then records it as confirmed, naming this import and you, and broadcasts for confirmed contacts only reach them."
        data-testid="import-confirmed-consent-choice"
      />
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="secondary" onClick={onBack}>
          Choose another file
        </Button>
        <Button disabled={rows.length === 0 || file.undecodable || file.parsed.unterminatedQuote} onClick={onImport}>
          Import {countOf(rows.length, 'contact')}
        </Button>
      </div>
    </div>
  );
}
