import { GlobeIcon } from 'lucide-react';
import { NotFoundState } from '../../../components/not-found-state';

/** An unknown id, or a domain of another organization, or one deleted meanwhile. */
export function DomainNotFound() {
  return (
    <NotFoundState testId="domain-not-found" icon={<GlobeIcon className="size-6" />} title="Domain not found" backHref="/domains" backLabel="Back to domains">
      This domain does not exist on your account. It may have been deleted.
    </NotFoundState>
  );
}
