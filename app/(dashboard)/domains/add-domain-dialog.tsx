'use client';

import { Dialog } from '../../components/dialog';
import { AddDomainForm } from './add-domain-form';
import type { Domain } from './types';

export function AddDomainDialog({
  open,
  onClose,
  onCreated,
  initialName,
}: {
  open: boolean;
  onClose: () => void;
  onCreated?: (domain: Domain) => void;
  initialName?: string;
}) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      testId="add-domain-dialog"
      title="Add domain"
      description="The domain you send from. You will get the DNS records to publish next."
    >
      <AddDomainForm onCancel={onClose} onCreated={onCreated} initialName={initialName} />
    </Dialog>
  );
}
