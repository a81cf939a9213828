'use client';

import { DeleteSection } from '../../../components/delete-section';
import type { Broadcast } from '../types';
import { DeleteBroadcastDialog } from './delete-broadcast-dialog';

export function DeleteBroadcastSection({ broadcast }: { broadcast: Broadcast }) {
  return (
    <DeleteSection procedure="broadcasts.delete" headingId="delete-broadcast-heading" title="Delete broadcast" dialog={(open, onClose) => <DeleteBroadcastDialog broadcast={broadcast} open={open} onClose={onClose} />}>
      {broadcast.status === 'draft' ? 'The draft is removed. Nothing was sent.' : 'It was cancelled; deleting removes it from the list.'}
    </DeleteSection>
  );
}
