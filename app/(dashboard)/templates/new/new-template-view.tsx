'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { Button, buttonClasses } from '../../../components/button';
import { UnsavedChangesGuard } from '../../../components/unsaved-changes-guard';
import { useTRPC } from '../../../lib/trpc';
import { EditorLayout } from '../editor-layout';
import { SyntaxHelp } from '../syntax-help';
import { TEMPLATE_FORM_ID, TemplateForm } from '../template-form';
import { createInput, EMPTY_VALUES, sameValues } from '../template-values';
import { useContentPreview } from '../use-content-preview';
import { useInvalidateTemplates } from '../use-invalidate-templates';
import { PreviewPanel } from '../preview-panel';
import { variablesSkeleton } from '../variables-json';

/** A new template: its source beside its preview as it is written, then its own page. Leaving before it is created asks first. */
export function NewTemplateView() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const invalidate = useInvalidateTemplates();
  const [values, setValues] = useState(EMPTY_VALUES);
  const [variables, setVariables] = useState(() => variablesSkeleton([]));
  const preview = useContentPreview(values, variables);
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
  // A failed create's complaint is about what was sent; once the fields change, the live preview speaks for them.
  const edit = (next: typeof values) => {
    setValues(next);
    if (create.isError) create.reset();
  };

  return (
    <>
      <EditorLayout
        testId="new-template"
        title="New template"
        description="Write the subject and the bodies with {{ variables }}; the preview beside renders them with sample variables as you type."
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
        form={
          <TemplateForm
            values={values}
            onChange={edit}
            onSubmit={() => create.mutate(createInput(values))}
            error={create.error ?? preview.contentError}
            errorTitle="Could not create the template"
          />
        }
        aside={
          <>
            <PreviewPanel preview={preview} variables={variables} onVariablesChange={setVariables} savedVariables={[]} />
            <SyntaxHelp />
          </>
        }
      />
      <UnsavedChangesGuard when={!saving && !sameValues(values, EMPTY_VALUES)} what="this template" />
    </>
  );
}
