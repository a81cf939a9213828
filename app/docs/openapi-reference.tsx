'use client';

import { useQuery } from '@tanstack/react-query';
import { Alert } from '../components/alert';
import { Button } from '../components/button';
import { Skeleton } from '../components/skeleton';
import { InlineMarkdown } from './inline-markdown';
import { groupByTag, slug, type OpenApiDocument } from './openapi';
import { OperationCard } from './operation-card';

async function fetchDocument(): Promise<OpenApiDocument> {
  const response = await fetch('/docs/openapi.json', { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`The OpenAPI document could not be loaded (HTTP ${response.status}).`);
  return (await response.json()) as OpenApiDocument;
}

function Loading() {
  return (
    <div className="space-y-3" role="status" aria-label="Loading the API reference">
      <Skeleton className="h-8 w-64" />
      <Skeleton className="h-4 w-96 max-w-full" />
      {Array.from({ length: 4 }, (_, index) => (
        <Skeleton key={index} className="h-14 w-full rounded-lg" />
      ))}
    </div>
  );
}

/** The API reference, rendered from the service's own OpenAPI document. */
export function OpenApiReference() {
  const query = useQuery({ queryKey: ['openapi-document'], queryFn: fetchDocument, staleTime: Infinity });

  if (query.isPending) return <Loading />;
  if (query.isError) {
    return (
      <Alert
        title="Could not load the API reference"
        action={
          <Button size="sm" variant="secondary" onClick={() => void query.refetch()}>
            Try again
          </Button>
        }
      >
        {query.error.message}
      </Alert>
    );
  }

  const document = query.data;
  const groups = groupByTag(document);
  const baseUrl = document.servers?.[0]?.url;
  const eventTypes = document.components?.schemas?.EventType?.enum;

  return (
    <div className="lg:grid lg:grid-cols-[12rem_minmax(0,1fr)] lg:gap-10">
      <nav aria-label="Sections" className="hidden lg:block">
        <ul className="sticky top-20 space-y-1 text-sm">
          {groups.map(({ tag }) => (
            <li key={tag}>
              <a href={`#${slug(tag)}`} className="block rounded px-2 py-1 text-slate-600 hover:bg-slate-100 hover:text-slate-900">
                {tag}
              </a>
            </li>
          ))}
          {eventTypes && (
            <li>
              <a href="#webhook-events" className="block rounded px-2 py-1 text-slate-600 hover:bg-slate-100 hover:text-slate-900">
                Webhook events
              </a>
            </li>
          )}
        </ul>
      </nav>

      <div className="min-w-0 space-y-10">
        <header>
          <p className="text-sm font-medium text-indigo-600">API reference · v{document.info.version}</p>
          <h1 className="mt-1 text-3xl font-semibold tracking-tight text-slate-900">{document.info.title}</h1>
          {document.info.description && <p className="mt-3 max-w-2xl text-slate-600">
              <InlineMarkdown text={document.info.description} />
            </p>}
          <dl className="mt-6 grid gap-4 rounded-lg border border-slate-200 bg-white p-4 text-sm sm:grid-cols-2">
            {baseUrl && (
              <div>
                <dt className="text-xs font-semibold tracking-wide text-slate-500 uppercase">Base URL</dt>
                <dd className="mt-1 font-mono break-all text-slate-900">{baseUrl}</dd>
              </div>
            )}
            <div>
              <dt className="text-xs font-semibold tracking-wide text-slate-500 uppercase">Authentication</dt>
              <dd className="mt-1 text-slate-700">
                <code className="font-mono text-slate-900">Authorization: Bearer &lt;API key&gt;</code>
              </dd>
            </div>
            <div className="sm:col-span-2">
              <dt className="text-xs font-semibold tracking-wide text-slate-500 uppercase">Machine-readable</dt>
              <dd className="mt-1">
                <a href="/docs/openapi.json" className="font-mono text-indigo-600 hover:text-indigo-500">
                  /docs/openapi.json
                </a>{' '}
                <span className="text-slate-500">(OpenAPI {document.openapi})</span>
              </dd>
            </div>
          </dl>
        </header>

        {groups.map(({ tag, operations }) => (
          <section key={tag} id={slug(tag)} aria-labelledby={`${slug(tag)}-title`} className="scroll-mt-20" data-testid="tag-group">
            <h2 id={`${slug(tag)}-title`} className="mb-3 text-lg font-semibold text-slate-900">
              {tag}
            </h2>
            <div className="space-y-2">
              {operations.map((operation) => (
                <OperationCard key={`${operation.method} ${operation.path}`} document={document} operation={operation} />
              ))}
            </div>
          </section>
        ))}

        {eventTypes && (
          <section id="webhook-events" aria-labelledby="webhook-events-title" className="scroll-mt-20">
            <h2 id="webhook-events-title" className="mb-1 text-lg font-semibold text-slate-900">
              Webhook events
            </h2>
            <p className="mb-3 text-sm text-slate-600">
              Signed with Standard Webhooks; the body is <code className="font-mono">{'{ type, createdAt, data }'}</code>.
            </p>
            <ul className="flex flex-wrap gap-2">
              {eventTypes.map((type) => (
                <li key={String(type)}>
                  <code className="rounded-md bg-white px-2 py-1 font-mono text-xs text-slate-700 ring-1 ring-slate-200">{String(type)}</code>
                </li>
              ))}
            </ul>
          </section>
        )}
      </div>
    </div>
  );
}
