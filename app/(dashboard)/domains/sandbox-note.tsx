import type { DomainSummary } from './types';

/**
 * The shared sandbox every organization has (docs/domains.md): shown apart from the domains the
 * organization registered, since there is nothing to publish, verify or delete for it.
 */
export function SandboxNote({ sandbox }: { sandbox: DomainSummary }) {
  return (
    <p data-testid="sandbox-domain" className="mt-4 rounded-lg border border-slate-200 bg-slate-50 px-5 py-3 text-sm text-slate-600">
      <strong className="font-medium break-all text-slate-800">{sandbox.name}</strong> is the shared sandbox, ready now: a{' '}
      <strong className="font-medium text-slate-800">test</strong> key sends from it to any address (nothing is delivered), a live key only to your own
      address. Verify a domain of your own to send live mail to others.
    </p>
  );
}
