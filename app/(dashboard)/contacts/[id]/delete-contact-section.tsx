'use client';

import { DeleteSection } from '../../../components/delete-section';
import type { ContactProfile } from '../types';
import { DeleteContactDialog } from './delete-contact-dialog';

export function DeleteContactSection({ contact }: { contact: ContactProfile }) {
  return (
    <DeleteSection procedure="contacts.delete" headingId="delete-contact-heading" title="Delete contact" dialog={(open, onClose) => open && <DeleteContactDialog contact={contact} onClose={onClose} />}>
      Delete the contact from everything: every segment, its property values and its topic choices.
    </DeleteSection>
  );
}
