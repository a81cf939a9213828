'use client';

import { DownloadIcon } from 'lucide-react';
import { Button } from '../../components/button';
import type { ProcessingActivities } from './types';

/** The file is made in the browser from the record on screen: what is downloaded is exactly what is shown. */
function download(record: ProcessingActivities) {
  const blob = new Blob([`${JSON.stringify(record, null, 2)}\n`], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = `processing-activities-${record.generatedAt.slice(0, 10)}.json`;
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}

export function DownloadJsonButton({ record }: { record: ProcessingActivities }) {
  return (
    <Button onClick={() => download(record)} title="The record as JSON: the same as GET /organization/processing-activities">
      <DownloadIcon className="size-4" />
      Download JSON
    </Button>
  );
}
