'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Badge } from '../../../components/badge';
import { Button } from '../../../components/button';
import { MayCall } from '../../../components/may-call';
import { useTRPC } from '../../../lib/trpc';
import type { Template } from '../types';

/**
 * For a template with drafts (Resend's create-then-publish, docs/templates.md): whether sends
 * render what is saved, and Publish. What is published is what is saved: with unsaved changes,
 * save first. A template without drafts sends every save at once and shows nothing here.
 */
export function PublishControl({ template, unsaved }: { template: Template; unsaved: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const publish = useMutation(
    trpc.templates.publish.mutationOptions({
      onSuccess: (published) => {
        queryClient.setQueryData(trpc.templates.get.queryKey({ id: published.id }), published);
        void queryClient.invalidateQueries(trpc.templates.list.pathFilter());
      },
    }),
  );
  if (!template.drafts) return null;
  const waiting = template.status === 'draft';
  return (
    <span className="inline-flex items-center gap-2" data-testid="template-publish">
      <Badge tone={waiting ? 'amber' : 'green'}>{template.publishedAt === null ? 'Draft: never published, cannot be sent' : waiting ? 'Saved changes not published' : 'Published'}</Badge>
      <MayCall procedure="templates.publish">
        {waiting && (
          <Button variant="secondary" size="sm" loading={publish.isPending} disabled={unsaved} title={unsaved ? 'Save your changes first' : undefined} onClick={() => publish.mutate({ id: template.id })}>
            Publish
          </Button>
        )}
      </MayCall>
      {publish.isError && <span className="text-xs text-red-700">{publish.error.message}</span>}
    </span>
  );
}
