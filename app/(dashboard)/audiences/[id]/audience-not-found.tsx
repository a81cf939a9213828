import Link from 'next/link';
import { UsersIcon } from 'lucide-react';
import { buttonClasses } from '../../../components/button';
import { EmptyState } from '../../../components/empty-state';

/** An unknown id, an audience of another organization, or one deleted meanwhile. */
export function AudienceNotFound() {
  return (
    <EmptyState
      testId="audience-not-found"
      icon={<UsersIcon className="size-6" />}
      title="Audience not found"
      action={
        <Link href="/audiences" className={buttonClasses('secondary')}>
          Back to audiences
        </Link>
      }
    >
      This audience does not exist on your account. It may have been deleted.
    </EmptyState>
  );
}
