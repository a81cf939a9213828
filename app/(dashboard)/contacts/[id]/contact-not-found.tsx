import { BookUserIcon } from 'lucide-react';
import { NotFoundState } from '../../../components/not-found-state';

/** An unknown id, a contact of another organization, or one deleted meanwhile. */
export function ContactNotFound() {
  return (
    <NotFoundState testId="contact-not-found" icon={<BookUserIcon className="size-6" />} title="Contact not found" backHref="/contacts" backLabel="Back to contacts">
      This contact does not exist on your account. It may have been deleted.
    </NotFoundState>
  );
}
