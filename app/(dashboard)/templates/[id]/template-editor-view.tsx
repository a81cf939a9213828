'use client';

import { useQuery } from '@tanstack/react-query';
import { ErrorAlert } from '../../../components/error-alert';
import { RetryButton } from '../../../components/retry-button';
import { describeError } from '../../../lib/errors';
import { useTRPC } from '../../../lib/trpc';
import { BackToTemplates } from '../back-to-templates';
import { TemplateEditor } from './template-editor';
import { TemplateEditorSkeleton } from './template-editor-skeleton';
import { TemplateNotFound } from './template-not-found';

export function TemplateEditorView({ id }: { id: string }) {
  const trpc = useTRPC();
  const query = useQuery(trpc.templates.get.queryOptions({ id }));

  // Once loaded, the editor stays through a failed background refetch: its unsaved edits are not dropped.
  // A new editor for another template: the fields start from what that one saved.
  if (query.data) return <TemplateEditor key={query.data.id} template={query.data} />;
  if (query.isPending) return <TemplateEditorSkeleton />;

  const { code } = describeError(query.error);
  if (code === 'NOT_FOUND' || code === 'VALIDATION_ERROR') return <TemplateNotFound />;
  return (
    <div className="space-y-4">
      <BackToTemplates />
      <ErrorAlert error={query.error} fallbackTitle="Could not load this template" action={<RetryButton query={query} />} />
    </div>
  );
}
