'use client';

import { useId } from 'react';
import { FileSpreadsheetIcon } from 'lucide-react';
import { Alert } from '../../../../components/alert';
import { buttonClasses } from '../../../../components/button';
import { Spinner } from '../../../../components/spinner';

const EXAMPLE = 'email,name,subscribed\nada@example.com,Ada Lovelace,yes\ngrace@example.com,Grace Hopper,no';

/** The first step of an import: what the file should look like, and the file. Nothing is sent yet. */
export function CsvFilePicker({ onFile, reading, error }: { onFile: (file: File) => void; reading: boolean; error: string | null }) {
  const id = useId();
  return (
    <div className="space-y-4" data-testid="csv-file-step">
      <div className="flex flex-col items-center rounded-xl border border-dashed border-slate-300 bg-slate-50/60 px-6 py-8 text-center">
        <div className="flex size-12 items-center justify-center rounded-full bg-indigo-50 text-indigo-600">
          <FileSpreadsheetIcon className="size-6" />
        </div>
        <p className="mt-3 text-sm font-medium text-slate-900">A CSV file with a column of email addresses</p>
        <p className="mt-1 max-w-md text-xs text-slate-500">
          Optionally a name column and a subscribed column (yes/no, true/false or 1/0). Separated by commas or semicolons, saved as UTF-8. The file
          is read in your browser; you check the columns before anything is sent.
        </p>
        <label htmlFor={id} className={`${buttonClasses('primary')} mt-4 cursor-pointer`}>
          {reading && <Spinner className="size-4" />}
          Choose CSV file
        </label>
        <input
          id={id}
          type="file"
          accept=".csv,text/csv,text/plain"
          className="sr-only"
          data-testid="csv-file-input"
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            if (file) onFile(file);
          }}
        />
      </div>
      <div>
        <p className="mb-1.5 text-xs font-semibold tracking-wide text-slate-500 uppercase">Example</p>
        <pre className="overflow-x-auto rounded-lg bg-slate-900 p-3 font-mono text-xs leading-relaxed text-slate-100">{EXAMPLE}</pre>
      </div>
      {error && <Alert title="This file cannot be imported">{error}</Alert>}
    </div>
  );
}
