'use client';

import Link from 'next/link';
import { useState } from 'react';
import { ArrowRightIcon } from 'lucide-react';
import { Alert } from '../../components/alert';
import { Button, buttonClasses } from '../../components/button';
import { EventsSummary } from './events-summary';
import { SecretValue } from './secret-value';
import type { CreatedWebhook } from './types';

/** The new endpoint's signing secret (and, on request, its test-mode one), shown at once so the receiver can be set up, and the way to its page. */
export function CreatedWebhookPanel({ created, onDone }: { created: CreatedWebhook; onDone: () => void }) {
  // Folded away: most receivers need the live secret only, and one Copy button keeps the panel plain.
  const [showTest, setShowTest] = useState(false);
  return (
    <div className="space-y-4" data-testid="created-webhook-panel">
      <div className="space-y-1.5 text-sm">
        <p className="font-medium break-all text-slate-900" data-testid="created-webhook-url">
          {created.url}
        </p>
        <EventsSummary events={created.events} />
      </div>
      <SecretValue secret={created.secret} />
      <Alert tone="info" title="Give this secret to your receiver">
        Every delivery is signed with it (Standard Webhooks). Copy it now; you can also reveal it later on the endpoint&apos;s page.
      </Alert>
      <div className="text-sm text-slate-600" data-testid="created-webhook-test-secret">
        {showTest ? (
          <>
            <p className="mb-3">
              Test-mode events are signed with this one too. It is the secret a test key reads: give it to a test receiver, which then verifies test events
              and never holds what signs a live one.
            </p>
            <SecretValue secret={created.testSecret} label="Test-mode signing secret" testId="webhook-test-secret" />
          </>
        ) : (
          <Button variant="ghost" size="sm" onClick={() => setShowTest(true)}>
            Show the test-mode secret
          </Button>
        )}
      </div>
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="secondary" onClick={onDone}>
          Done
        </Button>
        <Link href={`/webhooks/${created.id}`} className={buttonClasses('primary')} onClick={onDone}>
          Open endpoint
          <ArrowRightIcon className="size-4" />
        </Link>
      </div>
    </div>
  );
}
