import { InlineMarkdown } from './inline-markdown';
import { describeLimits, describeType, resolveSchema, type OpenApiDocument, type SchemaObject } from './openapi';

/** The top-level fields of an object schema, as a compact table. */
export function SchemaFields({ document, schema }: { document: OpenApiDocument; schema: SchemaObject | undefined }) {
  const resolved = resolveSchema(document, schema);
  const properties = Object.entries(resolved?.properties ?? {});
  if (!resolved || properties.length === 0) {
    return <p className="font-mono text-xs text-slate-600">{describeType(schema)}</p>;
  }
  const required = new Set(resolved.required ?? []);
  return (
    <div className="overflow-x-auto">
      <table className="w-full min-w-[36rem] table-fixed text-left text-xs">
        <colgroup>
          <col className="w-[30%]" />
          <col className="w-[30%]" />
          <col />
        </colgroup>
        <tbody className="divide-y divide-slate-100">
          {properties.map(([name, property]) => {
            const limits = describeLimits(property);
            return (
              <tr key={name} className="align-top">
                <td className="py-2 pr-4 break-words">
                  <code className="font-mono font-semibold text-slate-800">{name}</code>
                  {required.has(name) ? <span className="ml-1.5 text-[10px] font-medium text-red-600 uppercase">required</span> : null}
                </td>
                <td className="py-2 pr-4 font-mono break-all text-slate-600">{describeType(property)}</td>
                <td className="py-2 text-slate-600">
                  {property.description && <InlineMarkdown text={property.description} />}
                  {limits && <span className="block text-slate-400">{limits}</span>}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
