'use client';

import { useState } from 'react';
import { Dialog } from '../../components/dialog';
import { CreatedWebhookPanel } from './created-webhook-panel';
import { CreateWebhookForm } from './create-webhook-form';
import type { CreatedWebhook } from './types';

/** Two steps in one dialog: the URL and events, then the signing secret. */
export function CreateWebhookDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [created, setCreated] = useState<CreatedWebhook | null>(null);

  const close = () => {
    setCreated(null);
    onClose();
  };

  return (
    <Dialog
      open={open}
      onClose={close}
      testId="create-webhook-dialog"
      title={created ? 'Endpoint added' : 'Add endpoint'}
      description={created ? undefined : 'We POST a signed JSON body to this URL for each event you pick, and retry a few times when it does not answer 2xx.'}
    >
      {created ? <CreatedWebhookPanel created={created} onDone={close} /> : <CreateWebhookForm onCreated={setCreated} onCancel={close} />}
    </Dialog>
  );
}
