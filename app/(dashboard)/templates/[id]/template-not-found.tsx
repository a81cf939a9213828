import { LayoutTemplateIcon } from 'lucide-react';
import { NotFoundState } from '../../../components/not-found-state';

/** An unknown id, a template of another organization, or one deleted meanwhile. */
export function TemplateNotFound() {
  return (
    <NotFoundState testId="template-not-found" icon={<LayoutTemplateIcon className="size-6" />} title="Template not found" backHref="/templates" backLabel="Back to templates">
      This template does not exist on your account. It may have been deleted.
    </NotFoundState>
  );
}
