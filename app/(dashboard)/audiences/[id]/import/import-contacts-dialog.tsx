'use client';

import { useState } from 'react';
import { Dialog } from '../../../../components/dialog';
import { ErrorAlert } from '../../../../components/error-alert';
import { Button } from '../../../../components/button';
import type { Audience } from '../../types';
import { ImportMappingStep } from './import-mapping-step';
import { CsvFilePicker } from './csv-file-picker';
import { ImportProgress } from './import-progress';
import { ImportSummary } from './import-summary';
import { isFinished } from './import-job';
import { useContactImport } from './use-contact-import';
import { useCsvFile } from './use-csv-file';

/**
 * Contacts from a CSV file, in four steps: the file (read in the browser for the preview), its
 * columns with a preview, the upload and the background import's progress (POST and GET
 * /contacts/imports), and what happened to every row.
 */
export function ImportContactsDialog({ audience, open, onClose }: { audience: Audience; open: boolean; onClose: () => void }) {
  const csv = useCsvFile();
  const importer = useContactImport(audience.id);
  const { state, job } = importer;
  const [confirmedConsent, setConfirmedConsent] = useState(false);

  const restart = () => {
    importer.reset();
    csv.clear();
    setConfirmedConsent(false);
  };

  const close = () => {
    restart();
    onClose();
  };

  const step =
    state.phase === 'refused' ? 'refused' : state.phase === 'uploading' ? 'importing' : state.phase === 'importing' ? (job && isFinished(job) ? 'done' : 'importing') : csv.file ? 'mapping' : 'file';
  return (
    <Dialog
      open={open}
      onClose={close}
      wide
      testId="import-contacts-dialog"
      title={step === 'done' ? 'Import summary' : step === 'importing' ? 'Importing contacts' : 'Import contacts'}
      description={
        step === 'file' || step === 'mapping' ? (
          <>
            Into <strong className="font-semibold text-slate-700">{audience.name}</strong>. Addresses already in the audience are updated, not added twice,
            and contacts who unsubscribed stay unsubscribed whatever the file says.
          </>
        ) : undefined
      }
    >
      {step === 'file' && <CsvFilePicker onFile={(file) => void csv.read(file)} reading={csv.reading} error={csv.error} />}
      {step === 'mapping' && csv.file && csv.view && (
        <ImportMappingStep
          csv={csv}
          file={csv.file}
          view={csv.view}
          onBack={csv.clear}
          confirmedConsent={confirmedConsent}
          onConfirmedConsentChange={setConfirmedConsent}
          onImport={() => void importer.start({ file: csv.file!.source, fileName: csv.file!.name, mapping: csv.mapping, hasHeader: csv.hasHeader, confirmedConsent })}
        />
      )}
      {step === 'importing' && <ImportProgress job={job} onClose={close} />}
      {step === 'refused' && state.phase === 'refused' && (
        <div className="space-y-4" data-testid="import-refused">
          <ErrorAlert error={state.error} fallbackTitle="The file was not imported" />
          <div className="flex justify-end">
            <Button variant="secondary" onClick={importer.reset}>
              Back to the columns
            </Button>
          </div>
        </div>
      )}
      {step === 'done' && job && <ImportSummary job={job} onAnother={restart} onDone={close} />}
    </Dialog>
  );
}
