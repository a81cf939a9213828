'use client';

import { Modal } from '../../components/modal';
import { AddDomainForm } from './add-domain-form';

export function AddDomainDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Modal
      open={open}
      onClose={onClose}
      testId="add-domain-dialog"
      title="Add domain"
      description="The domain you send from. You will get the DNS records to publish next."
    >
      <AddDomainForm onCancel={onClose} />
    </Modal>
  );
}
