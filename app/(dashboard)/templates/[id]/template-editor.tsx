'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { SendIcon } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/button';
import { SaveActions } from '../../../components/save-actions';
import { UnsavedChangesGuard } from '../../../components/unsaved-changes-guard';
import { useTRPC } from '../../../lib/trpc';
import { EditorLayout } from '../editor-layout';
import { PreviewPanel } from '../preview-panel';
import { SyntaxHelp } from '../syntax-help';
import { TEMPLATE_FORM_ID, TemplateForm } from '../template-form';
import { sameValues, updateInput, valuesOf } from '../template-values';
import type { Template } from '../types';
import { useContentPreview } from '../use-content-preview';
import { variablesSkeleton, withVariables } from '../variables-json';
import { DeleteTemplateSection } from './delete-template-section';
import { SendTestDialog } from './send-test-dialog';
import { PublishControl } from './publish-control';
import { TemplateFacts } from './template-facts';
import { MayCall } from '../../../components/may-call';
import { useMay } from '../../../lib/use-role';
import { ReadOnlyNote } from '../../create-gate/read-only-note';

/**
 * A saved template: its source on the left, saved with Save; on the right what it holds now,
 * saved or not, rendered with sample variables, and "Send test". Leaving with changes not saved
 * asks first.
 */
export function TemplateEditor({ template }: { template: Template }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [values, setValues] = useState(() => valuesOf(template));
  const [variables, setVariables] = useState(() => variablesSkeleton(template.variables));
  const [sendingTest, setSendingTest] = useState(false);
  const preview = useContentPreview(values, variables);
  const update = useMutation(
    trpc.templates.update.mutationOptions({
      onSuccess: (saved) => {
        queryClient.setQueryData(trpc.templates.get.queryKey({ id: saved.id }), saved);
        setValues(valuesOf(saved));
        // Variables the change brought in join the sample, empty; the values typed stay.
        setVariables((current) => withVariables(current, saved.variables));
        void queryClient.invalidateQueries(trpc.templates.list.pathFilter());
      },
    }),
  );
  const mayUpdate = useMay('templates.update');
  const unsaved = !sameValues(values, valuesOf(template));
  const save = () => update.mutate(updateInput(template, values));
  // A failed save's complaint is about what was saved; once the fields change, the live preview speaks for them.
  const edit = (next: typeof values) => {
    setValues(next);
    if (update.isError) update.reset();
  };

  return (
    <>
      <EditorLayout
        testId="template-editor"
        title={template.name}
        description={
          <>
            <TemplateFacts template={template} />
            <PublishControl template={template} unsaved={unsaved} />
          </>
        }
        actions={mayUpdate ? <SaveActions form={TEMPLATE_FORM_ID} unsaved={unsaved} saving={update.isPending} /> : <ReadOnlyNote procedure="templates.update" />}
        form={
          <TemplateForm
            values={values}
            onChange={edit}
            onSubmit={save}
            readOnly={!mayUpdate}
            // A failed save first; else what the live preview found wrong in a field, as it is typed.
            error={update.error ?? preview.contentError}
            errorTitle="Could not save the template"
          />
        }
        aside={
          <>
            <PreviewPanel
              preview={preview}
              variables={variables}
              onVariablesChange={setVariables}
              savedVariables={template.variables}
              actions={
                <MayCall procedure="templates.sendTest">
                  <Button variant="secondary" size="sm" onClick={() => setSendingTest(true)}>
                    <SendIcon className="size-4" />
                    Send test
                  </Button>
                </MayCall>
              }
            />
            <SyntaxHelp />
          </>
        }
        footer={<DeleteTemplateSection template={template} />}
      />
      <SendTestDialog templateId={template.id} values={values} variables={variables} open={sendingTest} onClose={() => setSendingTest(false)} />
      <UnsavedChangesGuard when={unsaved && mayUpdate} what="your changes to this template" />
    </>
  );
}
