'use client';

import { EyeIcon } from 'lucide-react';
import { ErrorAlert } from '../../../components/error-alert';
import { Skeleton } from '../../../components/skeleton';
import { Spinner } from '../../../components/spinner';
import { ContactPicker } from './contact-picker';
import { RenderedMessage } from './rendered-message';
import type { ComposerPreview } from './use-composer-preview';

function Placeholder({ children }: { children: string }) {
  return (
    <div className="flex flex-col items-center rounded-lg border border-dashed border-slate-300 px-6 py-12 text-center" data-testid="preview-placeholder">
      <div className="flex size-10 items-center justify-center rounded-full bg-indigo-50 text-indigo-600">
        <EyeIcon className="size-5" />
      </div>
      <p className="mt-3 max-w-xs text-sm text-slate-500">{children}</p>
    </div>
  );
}

/**
 * The broadcast as one contact of the audience will get it, rendered by the server from what is
 * in the form now (saved or not), with that contact's name, address and an unsubscribe link.
 */
export function LivePreview({ preview, from }: { preview: ComposerPreview; from: string }) {
  const { query, missing, typing, contacts, contactId, setContactId } = preview;
  const rendering = !missing && (typing || query.isFetching);

  return (
    <section aria-labelledby="preview-heading" className="space-y-4 rounded-xl border border-slate-200 bg-white p-5 shadow-sm" data-testid="broadcast-preview">
      <div className="flex items-center justify-between gap-3">
        <h2 id="preview-heading" className="text-base font-semibold text-slate-900">
          Preview
        </h2>
        {rendering && (
          <span className="inline-flex items-center gap-1.5 text-xs text-slate-500" data-testid="preview-rendering">
            <Spinner className="size-3.5" />
            Rendering…
          </span>
        )}
      </div>

      {contacts.length > 0 ? (
        <ContactPicker contacts={contacts} value={contactId} onChange={setContactId} />
      ) : (
        <p className="text-sm text-slate-500" data-testid="preview-sample-values">
          {preview.contactsLoading ? 'Loading the audience’s contacts…' : 'Shown with sample values: the audience has no subscribed contact to preview as.'}
        </p>
      )}

      {missing ? (
        <Placeholder>{missing}</Placeholder>
      ) : (
        <>
          {query.isError && <ErrorAlert error={query.error} fallbackTitle="The preview cannot be rendered" />}
          {query.data ? (
            <RenderedMessage preview={query.data} from={from} stale={query.isError || query.isPlaceholderData || typing} />
          ) : query.isPending ? (
            <div className="space-y-3" aria-busy="true" data-testid="preview-skeleton">
              <Skeleton className="h-20 w-full rounded-lg" />
              <Skeleton className="h-72 w-full rounded-lg" />
            </div>
          ) : null}
        </>
      )}
    </section>
  );
}
