import type { ReactNode } from 'react';
import { PageHeader } from '../../components/page-header';
import { BackToTemplates } from './back-to-templates';

/** The editor's frame, for a new template and a saved one: the source on the left, its preview and help on the right. */
export function EditorLayout({
  title,
  description,
  actions,
  form,
  aside,
  footer,
  testId,
}: {
  title: string;
  description?: ReactNode;
  actions: ReactNode;
  form: ReactNode;
  aside: ReactNode;
  footer?: ReactNode;
  testId: string;
}) {
  return (
    <div data-testid={testId}>
      <div className="mb-4">
        <BackToTemplates />
      </div>
      <PageHeader title={title} description={description} actions={actions} />
      <div className="grid items-start gap-6 lg:grid-cols-2">
        <section aria-label="Template source" className="min-w-0 rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
          {form}
        </section>
        <div className="min-w-0 space-y-6">{aside}</div>
      </div>
      {footer && <div className="mt-6">{footer}</div>}
    </div>
  );
}
