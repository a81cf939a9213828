import { CopyButton } from '../../../components/copy-button';
import { RelativeTime } from '../../../components/relative-time';
import type { Template } from '../types';

/** Under the name: the id a send gives as template_id, and when the template last changed. */
export function TemplateFacts({ template }: { template: Template }) {
  return (
    <span className="mt-1 flex flex-wrap items-center gap-x-4 gap-y-1">
      <span className="inline-flex items-center gap-1.5">
        <span>template_id</span>
        <code className="font-mono text-xs text-slate-700" data-testid="template-id">
          {template.id}
        </code>
        <CopyButton text={template.id} size="sm" iconOnly describe="template ID" />
      </span>
      <span data-testid="template-updated">
        Updated <RelativeTime iso={template.updatedAt} />
      </span>
    </span>
  );
}
