'use client';

import Link from 'next/link';
import { ChevronRightIcon, ClipboardPenLineIcon, PlusIcon } from 'lucide-react';
import { Badge } from '../../components/badge';
import { DataTable } from '../../components/data-table';
import { EmptyState } from '../../components/empty-state';
import { ErrorAlert } from '../../components/error-alert';
import { LinkButton } from '../../components/link-button';
import { PageHeader } from '../../components/page-header';
import { isRefreshing, PagedListFooter } from '../../components/paged-list';
import { RetryButton } from '../../components/retry-button';
import { SkeletonRows } from '../../components/skeleton-rows';
import { countOf, formatDate, formatDateTime } from '../../lib/format';
import { GatedActions } from '../create-gate/gated-actions';
import { useCreateGate } from '../create-gate/use-create-gate';
import type { SignUpForm } from './types';
import { useForms } from './use-forms';

const columns = ['Form', 'Opt-in', 'Allowed sites', 'Created', { srOnly: 'Open' }];

function FormRow({ form }: { form: SignUpForm }) {
  const href = `/forms/${form.id}`;
  return (
    <tr data-testid="form-row" className="align-top hover:bg-slate-50/60">
      <td className="py-3 pr-4 pl-5 font-medium text-slate-900">
        <Link href={href} className="hover:text-indigo-600 hover:underline">
          {form.name}
        </Link>
      </td>
      <td className="px-4 py-3">{form.doubleOptIn ? <Badge tone="green">Double opt-in</Badge> : <Badge tone="muted">Single opt-in</Badge>}</td>
      <td className="px-4 py-3 font-mono text-[13px] text-slate-600">{form.allowedOrigins.join(', ')}</td>
      <td className="px-4 py-3 whitespace-nowrap text-slate-500">
        <time dateTime={form.createdAt} title={formatDateTime(form.createdAt)}>
          {formatDate(form.createdAt)}
        </time>
      </td>
      <td className="py-3 pr-5 pl-4 text-right">
        <Link href={href} aria-label={`Open ${form.name}`} className="inline-flex rounded-md p-1 text-slate-400 hover:bg-slate-100 hover:text-slate-600">
          <ChevronRightIcon className="size-5" />
        </Link>
      </td>
    </tr>
  );
}

export function FormsView() {
  const { query, forms } = useForms();
  const gate = useCreateGate({ procedure: 'forms.create', liveOnly: 'Forms add contacts to your audiences: make them in Live.' });
  const newButton = (
    <LinkButton href="/forms/new" disabled={gate.disabled} describedBy={gate.noteId}>
      <PlusIcon className="size-4" />
      New form
    </LinkButton>
  );

  return (
    <>
      <PageHeader
        title="Sign-up forms"
        description="Forms on your own site that add people to an audience, with the consent text they agreed to kept as proof."
        actions={forms && forms.length > 0 ? <GatedActions gate={gate}>{newButton}</GatedActions> : undefined}
      />
      {query.isPending && (
        <DataTable label="Sign-up forms" columns={columns} busy>
          <SkeletonRows testId="form-skeleton" count={2} cells={['h-4 w-48', 'h-5 w-24 rounded-md', 'h-4 w-56', 'h-4 w-20', 'ml-auto size-5']} />
        </DataTable>
      )}
      {query.isError && !forms && <ErrorAlert error={query.error} fallbackTitle="Could not load your forms" action={<RetryButton query={query} />} />}
      {forms?.length === 0 && (
        <EmptyState
          testId="forms-empty"
          icon={<ClipboardPenLineIcon className="size-6" />}
          title="No sign-up forms yet"
          action={
            <GatedActions gate={gate} align="center">
              {newButton}
            </GatedActions>
          }
        >
          Make a form, paste its snippet into a page of your site, and the people who fill it in join an audience. Each sign-up is kept with the
          consent text it was shown, the time and where it came from: the proof a regulator asks for.
        </EmptyState>
      )}
      {forms && forms.length > 0 && (
        <>
          <DataTable label="Sign-up forms" columns={columns} busy={isRefreshing(query)}>
            {forms.map((form) => (
              <FormRow key={form.id} form={form} />
            ))}
          </DataTable>
          <PagedListFooter
            count={countOf(forms.length, 'form')}
            testId="forms-footer"
            countTestId="forms-count"
            query={query}
            failure={{ more: 'Could not load more forms', refresh: 'Could not refresh the list' }}
          />
        </>
      )}
    </>
  );
}
