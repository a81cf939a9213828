'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { PageHeader } from '../../../components/page-header';
import { useTRPC } from '../../../lib/trpc';
import { FormEditor } from '../form-editor';

export function NewFormView() {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const create = useMutation(
    trpc.forms.create.mutationOptions({
      onSuccess: (form) => {
        void queryClient.invalidateQueries(trpc.forms.pathFilter());
        router.push(`/forms/${form.id}`);
      },
    }),
  );
  return (
    <>
      <PageHeader title="New sign-up form" description="What the form asks, where sign-ups go, what they agree to, and which of your sites may show it." />
      <FormEditor submitLabel="Create form" pending={create.isPending} error={create.error} errorTitle="Could not create the form" onSubmit={(values) => create.mutate(values)} />
    </>
  );
}
