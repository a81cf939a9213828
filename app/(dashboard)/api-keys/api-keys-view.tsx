'use client';

import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '../../components/button';
import { EmptyState } from '../../components/empty-state';
import { KeyRoundIcon, PlusIcon } from 'lucide-react';
import { PageHeader } from '../../components/page-header';
import { useTRPC } from '../../lib/trpc';
import { useMay } from '../../lib/use-role';
import { ApiKeyRow } from './api-key-row';
import { ApiKeySkeletonRows } from './api-key-skeleton-rows';
import { ApiKeysTable } from './api-keys-table';
import { CreateApiKeyDialog } from './create-api-key-dialog';
import { ErrorAlert } from '../../components/error-alert';
import { RetryButton } from '../../components/retry-button';
import { SmtpPanel } from './smtp-panel';
import { useOwnDomains } from './use-own-domains';

export function ApiKeysView() {
  const trpc = useTRPC();
  const keys = useQuery(trpc.apiKeys.list.queryOptions({}));
  const { domains } = useOwnDomains();
  const domainNames = new Map(domains.map((domain) => [domain.id, domain.name]));
  const [creating, setCreating] = useState(false);
  // A key's secret is shown once, at creation: only roles that may hold secrets make one.
  const mayCreate = useMay('apiKeys.create');

  const createButton = mayCreate ? (
    <Button onClick={() => setCreating(true)}>
      <PlusIcon className="size-4" />
      Create API key
    </Button>
  ) : undefined;

  return (
    <>
      <PageHeader
        title="API keys"
        description="Keys authenticate your requests to the API and the SMTP gateway. A secret is shown once, when the key is created."
        actions={keys.data && keys.data.data.length > 0 ? createButton : undefined}
      />

      {keys.isPending && (
        <ApiKeysTable busy>
          <ApiKeySkeletonRows />
        </ApiKeysTable>
      )}

      {keys.isError && <ErrorAlert error={keys.error} fallbackTitle="Could not load your API keys" action={<RetryButton query={keys} />} />}

      {keys.data && keys.data.data.length === 0 && (
        <EmptyState testId="api-keys-empty" icon={<KeyRoundIcon className="size-6" />} title="No API keys yet" action={createButton}>
          Create a key to send email from your application through the API or the SMTP gateway.
        </EmptyState>
      )}

      {keys.data && keys.data.data.length > 0 && (
        <ApiKeysTable>
          {keys.data.data.map((apiKey) => (
            <ApiKeyRow key={apiKey.id} apiKey={apiKey} pinnedTo={apiKey.domainId ? domainNames.get(apiKey.domainId) : undefined} />
          ))}
        </ApiKeysTable>
      )}

      <SmtpPanel />

      <CreateApiKeyDialog open={creating} onClose={() => setCreating(false)} />
    </>
  );
}
