'use client';

import { DeleteSection } from '../../../components/delete-section';
import { DeleteAudienceDialog } from '../delete-audience-dialog';
import type { Segment } from '../types';

export function DeleteAudienceSection({ audience }: { audience: Segment }) {
  return (
    <DeleteSection procedure="audiences.delete" headingId="delete-audience-heading" title="Delete audience" dialog={(open, onClose) => <DeleteAudienceDialog audience={audience} open={open} onClose={onClose} leaveTo="/audiences" />}>
      {audience.rules
        ? 'Delete the segment; its contacts stay. '
        : 'Delete the audience, and the contacts in it that are in no other audience. '}
      Not possible while a broadcast is scheduled for it or sending to it.
    </DeleteSection>
  );
}
