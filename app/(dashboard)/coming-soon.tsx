import { buttonClasses } from '../components/button';
import { DocsLink } from '../components/docs-link';
import { EmptyState } from '../components/empty-state';
import { PageHeader } from '../components/page-header';
import { navItem } from './nav-items';

/** The page of a resource whose dashboard screen is not built yet: what it will hold, and where to go meanwhile. */
export function ComingSoon({ href }: { href: string }) {
  const { label, description, icon: Icon } = navItem(href);
  return (
    <>
      <PageHeader title={label} description={description} />
      <EmptyState
        testId="coming-soon"
        icon={<Icon className="size-6" />}
        title={`${label} in the dashboard: coming soon`}
        action={
          <DocsLink className={buttonClasses('secondary')}>Read the API docs</DocsLink>
        }
      >
        This part of the dashboard is not built yet. The API reference lists the operations available today.
      </EmptyState>
    </>
  );
}
