'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { Button, buttonClasses } from '../../../components/button';
import { useTRPC } from '../../../lib/trpc';
import { EditorLayout } from '../editor-layout';
import { SyntaxHelp } from '../syntax-help';
import { TEMPLATE_FORM_ID, TemplateForm } from '../template-form';
import { createInput, EMPTY_VALUES } from '../template-values';
import { useInvalidateTemplates } from '../use-invalidate-templates';
import { PreviewAfterSave } from './preview-after-save';

/** A new template: its source, then its own page, where it is previewed and edited. */
export function NewTemplateView() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const invalidate = useInvalidateTemplates();
  const [values, setValues] = useState(EMPTY_VALUES);
  const create = useMutation(
    trpc.templates.create.mutationOptions({
      onSuccess: (template) => {
        void invalidate();
        // Its page opens on what was just saved, without loading it again.
        queryClient.setQueryData(trpc.templates.get.queryKey({ id: template.id }), template);
        router.replace(`/templates/${template.id}`);
      },
    }),
  );
  const saving = create.isPending || create.isSuccess;

  return (
    <EditorLayout
      testId="new-template"
      title="New template"
      description="Write the subject and the bodies with {{ variables }}; you preview it with sample variables once it is created."
      actions={
        <>
          <Link href="/templates" className={buttonClasses('secondary')}>
            Cancel
          </Link>
          <Button type="submit" form={TEMPLATE_FORM_ID} loading={saving} disabled={!values.name.trim() || !values.subject}>
            Create template
          </Button>
        </>
      }
      form={<TemplateForm values={values} onChange={setValues} onSubmit={() => create.mutate(createInput(values))} error={create.error} errorTitle="Could not create the template" />}
      aside={
        <>
          <PreviewAfterSave />
          <SyntaxHelp />
        </>
      }
    />
  );
}
