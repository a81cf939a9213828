'use client';

import { Dialog } from '../../components/dialog';
import { AddDomainForm } from './add-domain-form';

export function AddDomainDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      testId="add-domain-dialog"
      title="Add domain"
      description="The domain you send from. You will get the DNS records to publish next."
    >
      <AddDomainForm onCancel={onClose} />
    </Dialog>
  );
}
