'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Badge } from '../../../components/badge';
import { Button } from '../../../components/button';
import { useTRPC } from '../../../lib/trpc';
import { EditorLayout } from '../editor-layout';
import { SyntaxHelp } from '../syntax-help';
import { TEMPLATE_FORM_ID, TemplateForm } from '../template-form';
import { sameValues, updateInput, valuesOf } from '../template-values';
import type { Template } from '../types';
import { DeleteTemplateSection } from './delete-template-section';
import { PreviewPanel } from './preview-panel';
import { TemplateFacts } from './template-facts';
import { variablesSkeleton, withVariables } from './variables-json';

/**
 * A saved template: its source on the left, saved with Save; on the right the saved version
 * rendered with sample variables. The preview is of what is saved, never of unsaved edits.
 */
export function TemplateEditor({ template }: { template: Template }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [values, setValues] = useState(() => valuesOf(template));
  const [variables, setVariables] = useState(() => variablesSkeleton(template.variables));
  const update = useMutation(
    trpc.templates.update.mutationOptions({
      onSuccess: (saved) => {
        queryClient.setQueryData(trpc.templates.get.queryKey({ id: saved.id }), saved);
        setValues(valuesOf(saved));
        // Variables the change brought in join the sample, empty; the values typed stay.
        setVariables((current) => withVariables(current, saved.variables));
        void queryClient.invalidateQueries(trpc.templates.list.pathFilter());
        // Renderings of the previous version are dropped rather than shown as current: the
        // preview renders again, the last one dimmed meanwhile.
        void queryClient.resetQueries(trpc.templates.preview.pathFilter());
      },
    }),
  );
  const unsaved = !sameValues(values, valuesOf(template));
  const save = () => update.mutate(updateInput(template, values));

  return (
    <EditorLayout
      testId="template-editor"
      title={template.name}
      description={<TemplateFacts template={template} />}
      actions={
        <div className="flex items-center gap-3">
          {unsaved && (
            <span data-testid="unsaved-changes">
              <Badge tone="amber">Unsaved changes</Badge>
            </span>
          )}
          <Button type="submit" form={TEMPLATE_FORM_ID} loading={update.isPending} disabled={!unsaved}>
            Save
          </Button>
        </div>
      }
      form={<TemplateForm values={values} onChange={setValues} onSubmit={save} error={update.error} errorTitle="Could not save the template" />}
      aside={
        <>
          <PreviewPanel template={template} variables={variables} onVariablesChange={setVariables} unsaved={unsaved} />
          <SyntaxHelp />
        </>
      }
      footer={<DeleteTemplateSection template={template} />}
    />
  );
}
