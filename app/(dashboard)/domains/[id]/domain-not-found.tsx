import Link from 'next/link';
import { buttonClasses } from '../../../components/button';
import { EmptyState } from '../../../components/empty-state';
import { GlobeIcon } from 'lucide-react';

/** An unknown id, or a domain of another organization, or one deleted meanwhile. */
export function DomainNotFound() {
  return (
    <EmptyState
      testId="domain-not-found"
      icon={<GlobeIcon className="size-6" />}
      title="Domain not found"
      action={
        <Link href="/domains" className={buttonClasses('secondary')}>
          Back to domains
        </Link>
      }
    >
      This domain does not exist on your account. It may have been deleted.
    </EmptyState>
  );
}
