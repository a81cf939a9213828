'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { SaveActions } from '../../../components/save-actions';
import { useTRPC } from '../../../lib/trpc';
import { COMPOSER_FORM_ID, ComposerForm } from '../composer/composer-form';
import { ComposerLayout } from '../composer/composer-layout';
import { sameValues, updateInput, valuesOf } from '../composer/composer-values';
import { LivePreview } from '../composer/live-preview';
import { SendPanel } from '../composer/send-panel';
import { useComposerPreview } from '../composer/use-composer-preview';
import type { Broadcast } from '../types';
import { ComposerFacts } from './composer-facts';
import { DeleteBroadcastSection } from './delete-broadcast-section';
import { ScheduledNotice } from './scheduled-notice';
import { useMay } from '../../../lib/use-role';
import { ReadOnlyNote } from '../../create-gate/read-only-note';

/**
 * A saved draft or scheduled broadcast: its fields on the left, saved with Save; on the right
 * what is in the fields now, as a contact gets it, then the checks and the send, which act on
 * the saved version.
 */
export function BroadcastComposer({ broadcast }: { broadcast: Broadcast }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [values, setValues] = useState(() => valuesOf(broadcast));
  const preview = useComposerPreview(values);
  const update = useMutation(
    trpc.broadcasts.update.mutationOptions({
      onSuccess: (saved) => {
        queryClient.setQueryData(trpc.broadcasts.get.queryKey({ id: saved.id }), saved);
        setValues(valuesOf(saved));
        void queryClient.invalidateQueries(trpc.broadcasts.list.pathFilter());
        // The checks judged the previous version: they run again on this one.
        void queryClient.invalidateQueries(trpc.broadcasts.preflight.pathFilter());
      },
    }),
  );
  const mayUpdate = useMay('broadcasts.update');
  const unsaved = !sameValues(values, valuesOf(broadcast));

  return (
    <ComposerLayout
      testId="broadcast-composer"
      title={broadcast.name}
      description={<ComposerFacts broadcast={broadcast} />}
      actions={mayUpdate ? <SaveActions form={COMPOSER_FORM_ID} unsaved={unsaved} saving={update.isPending} /> : <ReadOnlyNote procedure="broadcasts.update" />}
      notice={broadcast.status === 'scheduled' ? <ScheduledNotice broadcast={broadcast} /> : undefined}
      form={
        <ComposerForm
          values={values}
          onChange={setValues}
          onSubmit={() => update.mutate(updateInput(broadcast, values))}
          error={update.error}
          errorTitle="Could not save the broadcast"
          readOnly={!mayUpdate}
          subscribed={preview.subscribed}
        />
      }
      aside={
        <>
          <LivePreview preview={preview} from={values.from} />
          <SendPanel broadcast={broadcast} unsaved={unsaved} />
        </>
      }
      footer={broadcast.status === 'draft' ? <DeleteBroadcastSection broadcast={broadcast} /> : undefined}
    />
  );
}
