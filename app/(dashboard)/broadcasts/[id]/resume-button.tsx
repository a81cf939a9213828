'use client';

import { PlayIcon } from 'lucide-react';
import { Button } from '../../../components/button';
import { ErrorAlert } from '../../../components/error-alert';
import { useSendBroadcast } from '../composer/use-send-broadcast';
import type { Broadcast } from '../types';

/** A broadcast held by a limit tries again at once (the limit may have moved: a plan change, a new day); the answer says if it is still held. */
export function ResumeButton({ broadcast }: { broadcast: Broadcast }) {
  const resume = useSendBroadcast();
  return (
    <div className="flex flex-col items-end gap-2">
      <Button variant="secondary" size="sm" loading={resume.isPending} onClick={() => resume.mutate({ id: broadcast.id })}>
        <PlayIcon className="size-4" />
        Resume now
      </Button>
      {resume.error ? <ErrorAlert error={resume.error} fallbackTitle="Could not resume the broadcast" /> : null}
    </div>
  );
}
