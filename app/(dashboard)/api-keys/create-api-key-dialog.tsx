'use client';

import { useState } from 'react';
import { Dialog } from '../../components/dialog';
import { CreateApiKeyForm } from './create-api-key-form';
import { SecretPanel } from './secret-panel';
import type { CreatedApiKey } from './types';

/** Two steps in one dialog: the form, then the secret shown once. */
export function CreateApiKeyDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [created, setCreated] = useState<CreatedApiKey | null>(null);

  const close = () => {
    setCreated(null);
    onClose();
  };

  return (
    <Dialog
      open={open}
      onClose={close}
      testId="create-api-key-dialog"
      // Room for a sending key's SMTP login, the secret on one line.
      wide={created?.permission === 'sending_access'}
      title={created ? 'API key created' : 'Create API key'}
      description={created ? undefined : 'Keys authenticate requests to the API and logins to the SMTP gateway.'}
    >
      {created ? <SecretPanel created={created} onDone={close} /> : <CreateApiKeyForm onCreated={setCreated} onCancel={close} />}
    </Dialog>
  );
}
