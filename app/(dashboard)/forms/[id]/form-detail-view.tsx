'use client';

import Link from 'next/link';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useId } from 'react';
import { ArrowLeftIcon } from 'lucide-react';
import { CardSection } from '../../../components/card-section';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { CopyButton } from '../../../components/copy-button';
import { DeleteSection } from '../../../components/delete-section';
import { ErrorAlert } from '../../../components/error-alert';
import { PageHeader } from '../../../components/page-header';
import { RetryButton } from '../../../components/retry-button';
import { Skeleton } from '../../../components/skeleton';
import { useTRPC } from '../../../lib/trpc';
import { FormEditor } from '../form-editor';
import { SubmissionsSection } from './submissions-section';

function SnippetSection({ snippet, endpoint }: { snippet: string; endpoint: string }) {
  return (
    <CardSection
      testId="form-snippet"
      title="Snippet"
      description={
        <>
          Paste it into a page of an allowed site. It posts to <code className="font-mono text-[13px] break-all">{endpoint}</code>; its small script records how long the
          form was on screen, which keeps bots out.
        </>
      }
      action={<CopyButton text={snippet} label="Copy snippet" />}
    >
      <pre className="mt-4 max-h-80 overflow-auto rounded-lg bg-slate-900 p-4 font-mono text-xs leading-relaxed text-slate-100" data-testid="snippet-code">
        {snippet}
      </pre>
    </CardSection>
  );
}

export function FormDetailView({ id }: { id: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const deleteHeading = useId();
  const form = useQuery(trpc.forms.get.queryOptions({ id }));
  const update = useMutation(
    trpc.forms.update.mutationOptions({
      onSuccess: (saved) => {
        queryClient.setQueryData(trpc.forms.get.queryKey({ id }), saved);
        void queryClient.invalidateQueries(trpc.forms.list.pathFilter());
      },
    }),
  );
  const remove = useMutation(
    trpc.forms.delete.mutationOptions({
      onSuccess: () => {
        void queryClient.invalidateQueries(trpc.forms.list.pathFilter());
        router.push('/forms');
      },
    }),
  );

  const back = (
    <Link href="/forms" className="inline-flex items-center gap-1 text-sm text-slate-500 hover:text-slate-700">
      <ArrowLeftIcon className="size-4" />
      Sign-up forms
    </Link>
  );

  if (form.isPending) {
    return (
      <>
        {back}
        <Skeleton className="mt-4 h-8 w-64" />
        <Skeleton className="mt-6 h-64 w-full" />
      </>
    );
  }
  if (form.isError) return <>{back}<ErrorAlert error={form.error} fallbackTitle="Could not load the form" action={<RetryButton query={form} />} /></>;
  const data = form.data;

  return (
    <div className="space-y-6">
      {back}
      <PageHeader title={data.name} description={`Consent text version ${data.consentVersion}. ${data.doubleOptIn ? 'Double opt-in: people confirm from an email first.' : 'Single opt-in: sign-ups are subscribed at once.'}`} />
      <SnippetSection snippet={data.snippet} endpoint={data.endpoint} />
      <FormEditor
        key={data.updatedAt}
        form={data}
        submitLabel="Save changes"
        pending={update.isPending}
        error={update.error}
        errorTitle="Could not save the form"
        onSubmit={(values) => update.mutate({ id, ...values })}
      />
      <SubmissionsSection formId={id} />
      <DeleteSection
        procedure="forms.delete"
        headingId={deleteHeading}
        title="Delete form"
        dialog={(open, onClose) => (
          <ConfirmDialog
            open={open}
            onClose={onClose}
            title={`Delete ${data.name}?`}
            testId="delete-form-dialog"
            description="The snippet stops working at once and the submissions list goes. The contacts stay, and so does the proof of their consent: the ledger keeps every version of the consent text."
            confirmLabel="Delete form"
            onConfirm={() => remove.mutate({ id })}
            pending={remove.isPending}
            error={remove.error}
            errorTitle="Could not delete the form"
          />
        )}
      >
        The snippet stops working; contacts and their consent records stay.
      </DeleteSection>
    </div>
  );
}
