'use client';

import { useState } from 'react';
import { Dialog } from '../../../../components/dialog';
import type { Audience } from '../../types';
import { ImportMappingStep } from './import-mapping-step';
import { CsvFilePicker } from './csv-file-picker';
import { ImportProgress } from './import-progress';
import { ImportSummary } from './import-summary';
import type { SkippedRow } from './contact-rows';
import { useContactsUpload } from './use-contacts-upload';
import { useCsvFile } from './use-csv-file';

/**
 * Contacts from a CSV file, in four steps: the file (read in the browser), its columns with a
 * preview, the upload in batches of 1,000 with its progress, and what happened to every row.
 */
export function ImportContactsDialog({ audience, open, onClose }: { audience: Audience; open: boolean; onClose: () => void }) {
  const csv = useCsvFile();
  const upload = useContactsUpload(audience.id);
  // The rows the file itself ruled out, kept for the summary.
  const [fileSkipped, setFileSkipped] = useState<SkippedRow[]>([]);
  const uploading = upload.state.phase === 'uploading';

  const restart = () => {
    upload.reset();
    csv.clear();
    setFileSkipped([]);
  };

  const close = () => {
    if (uploading) return;
    restart();
    onClose();
  };

  const step = upload.state.phase !== 'idle' ? upload.state.phase : csv.file ? 'mapping' : 'file';
  return (
    <Dialog
      open={open}
      onClose={close}
      wide
      testId="import-contacts-dialog"
      title={step === 'done' ? 'Import summary' : step === 'uploading' ? 'Importing contacts' : 'Import contacts'}
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
          onImport={(rows, skipped) => {
            setFileSkipped(skipped);
            void upload.start(rows);
          }}
        />
      )}
      {upload.state.phase === 'uploading' && <ImportProgress progress={upload.state.progress} stopping={upload.state.stopping} onStop={upload.stop} />}
      {upload.state.phase === 'done' && <ImportSummary outcome={upload.state.outcome} fileSkipped={fileSkipped} onAnother={restart} onDone={close} />}
    </Dialog>
  );
}
