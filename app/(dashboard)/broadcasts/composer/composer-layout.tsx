import type { ReactNode } from 'react';
import { PageHeader } from '../../../components/page-header';
import { BackToBroadcasts } from '../back-to-broadcasts';

/** The composer's frame, new or saved: the form on the left, the preview and the way to send on the right. */
export function ComposerLayout({
  title,
  description,
  actions,
  notice,
  form,
  aside,
  footer,
  testId,
}: {
  title: string;
  description?: ReactNode;
  actions: ReactNode;
  notice?: ReactNode;
  form: ReactNode;
  aside: ReactNode;
  footer?: ReactNode;
  testId: string;
}) {
  return (
    <div data-testid={testId}>
      <div className="mb-4">
        <BackToBroadcasts />
      </div>
      <PageHeader title={title} description={description} actions={actions} />
      {notice && <div className="mb-6">{notice}</div>}
      <div className="grid items-start gap-6 lg:grid-cols-2">
        <section aria-label="Message" className="min-w-0 rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
          {form}
        </section>
        <div className="min-w-0 space-y-6">{aside}</div>
      </div>
      {footer && <div className="mt-6">{footer}</div>}
    </div>
  );
}
