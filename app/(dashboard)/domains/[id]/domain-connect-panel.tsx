'use client';

import { buttonClasses } from '../../../components/button';
import { ExternalLinkIcon } from 'lucide-react';
import { Spinner } from '../../../components/spinner';
import { describeError } from '../../../lib/errors';
import { useDomainConnect } from './use-domain-connect';
import { MayCall } from '../../../components/may-call';

const muted = 'flex items-center gap-2 text-sm text-slate-500';

/**
 * One-click setup at the customer's DNS provider (Domain Connect): a call to action when the
 * provider supports it, otherwise a muted line saying why not.
 */
function DomainConnectPanelShown({ domainId }: { domainId: string }) {
  const answer = useDomainConnect(domainId);

  if (answer.isPending) {
    return (
      <p className={muted} data-testid="domain-connect" role="status">
        <Spinner className="size-3.5" />
        Checking whether your DNS provider can add the records for you…
      </p>
    );
  }

  if (answer.isError) {
    // The domain is gone: the page says so once its own query notices.
    if (describeError(answer.error).code === 'NOT_FOUND') return null;
    return (
      <p className={muted} data-testid="domain-connect">
        Could not check whether your DNS provider supports automatic setup.
      </p>
    );
  }

  const result = answer.data;
  if (!result.supported) {
    return (
      <p className={muted} data-testid="domain-connect">
        <span data-testid="domain-connect-reason">Automatic setup is not available: {result.reason.replace(/\.$/, '')}.</span>
      </p>
    );
  }

  return (
    <section
      aria-labelledby="domain-connect-heading"
      data-testid="domain-connect"
      className="flex flex-col gap-3 rounded-xl border border-indigo-200 bg-indigo-50/60 p-4 sm:flex-row sm:items-center sm:justify-between"
    >
      <div className="text-sm">
        <h3 id="domain-connect-heading" className="font-semibold text-slate-900">
          Set up automatically
        </h3>
        <p className="mt-0.5 text-slate-600">
          Your DNS is hosted at <strong className="font-medium text-slate-800">{result.providerName}</strong>, which can add these records for you: sign in
          there and approve them in one step.
        </p>
      </div>
      <a href={result.applyUrl} target="_blank" rel="noopener noreferrer" className={buttonClasses('primary')}>
        Set up automatically with {result.providerName}
        <ExternalLinkIcon className="size-4" />
      </a>
    </section>
  );
}

/** Only for a role that may change the domain: the server refuses the others the question. */
export function DomainConnectPanel(props: { domainId: string }) {
  return (
    <MayCall procedure="domains.domainConnect">
      <DomainConnectPanelShown {...props} />
    </MayCall>
  );
}
