'use client';

import { DeleteSection } from '../../../components/delete-section';
import type { Domain } from '../types';
import { DeleteDomainDialog } from './delete-domain-dialog';

export function DeleteDomainSection({ domain }: { domain: Domain }) {
  return (
    <DeleteSection procedure="domains.delete" headingId="delete-domain-heading" title="Delete domain" dialog={(open, onClose) => <DeleteDomainDialog domain={domain} open={open} onClose={onClose} />}>
      Stop sending from this domain. Its DKIM key is destroyed and API keys restricted to it are revoked.
    </DeleteSection>
  );
}
