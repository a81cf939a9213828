import { UsersIcon } from 'lucide-react';
import { NotFoundState } from '../../../components/not-found-state';

/** An unknown id, an audience of another organization, or one deleted meanwhile. */
export function AudienceNotFound() {
  return (
    <NotFoundState testId="audience-not-found" icon={<UsersIcon className="size-6" />} title="Audience not found" backHref="/audiences" backLabel="Back to audiences">
      This audience does not exist on your account. It may have been deleted.
    </NotFoundState>
  );
}
