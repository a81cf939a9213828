import Link from 'next/link';
import { LayoutTemplateIcon } from 'lucide-react';
import { buttonClasses } from '../../../components/button';
import { EmptyState } from '../../../components/empty-state';

/** An unknown id, a template of another organization, or one deleted meanwhile. */
export function TemplateNotFound() {
  return (
    <EmptyState
      testId="template-not-found"
      icon={<LayoutTemplateIcon className="size-6" />}
      title="Template not found"
      action={
        <Link href="/templates" className={buttonClasses('secondary')}>
          Back to templates
        </Link>
      }
    >
      This template does not exist on your account. It may have been deleted.
    </EmptyState>
  );
}
