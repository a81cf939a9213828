'use client';

import { DeleteSection } from '../../../components/delete-section';
import { DeleteAudienceDialog } from '../delete-audience-dialog';
import type { Audience } from '../types';

export function DeleteAudienceSection({ audience }: { audience: Audience }) {
  return (
    <DeleteSection procedure="audiences.delete" headingId="delete-audience-heading" title="Delete audience" dialog={(open, onClose) => <DeleteAudienceDialog audience={audience} open={open} onClose={onClose} leaveTo="/audiences" />}>
      Delete the audience and every contact in it. Not possible while a broadcast is scheduled for it or sending to it.
    </DeleteSection>
  );
}
