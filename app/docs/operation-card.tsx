import type { ReactNode } from 'react';
import { LockIcon } from '../components/icons';
import { InlineMarkdown } from './inline-markdown';
import { MethodBadge } from './method-badge';
import { isPublic, refName, slug, type OpenApiDocument, type Operation } from './openapi';
import { SchemaFields } from './schema-fields';

function Section({ title, detail, children }: { title: string; detail?: string; children: ReactNode }) {
  return (
    <div>
      <h4 className="mb-1.5 text-xs font-semibold text-slate-500">
        <span className="tracking-wide uppercase">{title}</span>
        {detail && <span className="font-mono font-normal text-slate-600"> · {detail}</span>}
      </h4>
      {children}
    </div>
  );
}

/** One operation: method, path, summary and who may call it; details on demand. */
export function OperationCard({ document, operation }: { document: OpenApiDocument; operation: Operation }) {
  const open = isPublic(document, operation);
  const body = operation.requestBody?.content?.['application/json']?.schema;
  const parameters = operation.parameters ?? [];
  const responses = Object.entries(operation.responses ?? {});
  const success = responses.find(([status]) => status.startsWith('2'));
  const errors = responses.filter(([status]) => !status.startsWith('2'));
  const successSchema = success?.[1].content?.['application/json']?.schema;

  return (
    <details id={operation.operationId ? slug(operation.operationId) : undefined} className="group rounded-lg border border-slate-200 bg-white" data-testid="operation">
      <summary className="flex cursor-pointer list-none flex-col gap-2 p-4 hover:bg-slate-50 sm:flex-row sm:items-center sm:gap-4 [&::-webkit-details-marker]:hidden">
        <div className="flex min-w-0 items-center gap-3">
          <MethodBadge method={operation.method} />
          <code className="truncate font-mono text-sm font-medium text-slate-900">{operation.path}</code>
        </div>
        <span className="min-w-0 flex-1 text-sm text-slate-600">{operation.summary}</span>
        <span className="flex shrink-0 items-center gap-1.5 text-xs text-slate-500">
          {open ? (
            'No authentication'
          ) : (
            <>
              <LockIcon className="size-3.5" />
              API key
            </>
          )}
          <span aria-hidden="true" className="ml-2 text-slate-400 transition-transform group-open:rotate-90">
            ›
          </span>
        </span>
      </summary>
      <div className="space-y-5 border-t border-slate-100 px-4 py-4">
        {operation.description && (
          <p className="text-sm text-slate-600">
            <InlineMarkdown text={operation.description} />
          </p>
        )}
        <p className="text-xs text-slate-500">
          Operation <code className="font-mono text-slate-700">{operation.operationId}</code>
          {!open && (
            <>
              {' '}· send <code className="font-mono text-slate-700">Authorization: Bearer eu_live_…</code>
            </>
          )}
        </p>
        {parameters.length > 0 && (
          <Section title="Parameters">
            <ul className="space-y-1 text-xs">
              {parameters.map((parameter) => (
                <li key={`${parameter.in}:${parameter.name}`}>
                  <code className="font-mono font-semibold text-slate-800">{parameter.name}</code>{' '}
                  <span className="text-slate-500">
                    in {parameter.in}
                    {parameter.required ? ', required' : ''}
                  </span>
                  {parameter.description && <span className="text-slate-600"> — {parameter.description}</span>}
                </li>
              ))}
            </ul>
          </Section>
        )}
        {body && (
          <Section title="Request body (JSON)">
            <SchemaFields document={document} schema={body} />
          </Section>
        )}
        {success && (
          <Section title={`Response ${success[0]}`} detail={refName(successSchema)}>
            <SchemaFields document={document} schema={successSchema} />
          </Section>
        )}
        {errors.length > 0 && (
          <Section title="Errors" detail="{ error, code }">
            <ul className="space-y-0.5 text-xs text-slate-600">
              {errors.map(([status, response]) => (
                <li key={status}>
                  <span className="font-mono font-semibold text-slate-800">{status}</span> {response.description}
                </li>
              ))}
            </ul>
          </Section>
        )}
      </div>
    </details>
  );
}
