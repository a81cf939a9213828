'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { Button, buttonClasses } from '../../../components/button';
import { useTRPC } from '../../../lib/trpc';
import { COMPOSER_FORM_ID, ComposerForm } from '../composer/composer-form';
import { ComposerLayout } from '../composer/composer-layout';
import { createInput, EMPTY_VALUES } from '../composer/composer-values';
import { LivePreview } from '../composer/live-preview';
import { SendAfterSave } from '../composer/send-after-save';
import { useComposerPreview } from '../composer/use-composer-preview';
import { useInvalidateBroadcasts } from '../use-invalidate-broadcasts';

/** A new broadcast: written and previewed here, saved as a draft, then checked and sent from its own page. */
export function NewBroadcastView() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const invalidate = useInvalidateBroadcasts();
  const [values, setValues] = useState(EMPTY_VALUES);
  const preview = useComposerPreview(values);
  const create = useMutation(
    trpc.broadcasts.create.mutationOptions({
      onSuccess: (broadcast) => {
        void invalidate();
        // Its page opens on what was just saved, without loading it again.
        queryClient.setQueryData(trpc.broadcasts.get.queryKey({ id: broadcast.id }), broadcast);
        router.replace(`/broadcasts/${broadcast.id}`);
      },
    }),
  );
  const saving = create.isPending || create.isSuccess;

  return (
    <ComposerLayout
      testId="new-broadcast"
      title="New broadcast"
      description="Choose the audience, write the message and watch it as a contact will get it. Save the draft to test and send it."
      actions={
        <>
          <Link href="/broadcasts" className={buttonClasses('secondary')}>
            Cancel
          </Link>
          <Button type="submit" form={COMPOSER_FORM_ID} loading={saving} disabled={!values.audienceId || !values.from.trim()}>
            Save draft
          </Button>
        </>
      }
      form={
        <ComposerForm
          values={values}
          onChange={setValues}
          onSubmit={() => create.mutate(createInput(values))}
          error={create.error}
          errorTitle="Could not save the draft"
          subscribed={preview.subscribed}
        />
      }
      aside={
        <>
          <LivePreview preview={preview} from={values.from} />
          <SendAfterSave />
        </>
      }
    />
  );
}
