'use client';

import { DeleteSection } from '../../../components/delete-section';
import type { Template } from '../types';
import { DeleteTemplateDialog } from './delete-template-dialog';

export function DeleteTemplateSection({ template }: { template: Template }) {
  return (
    <DeleteSection procedure="templates.delete" headingId="delete-template-heading" title="Delete template" dialog={(open, onClose) => <DeleteTemplateDialog template={template} open={open} onClose={onClose} />}>
      Sends that name this template are refused afterwards. Emails already sent with it are not changed.
    </DeleteSection>
  );
}
