/** The small part of OpenAPI 3.1 that the reference page reads. */
export interface SchemaObject {
  $ref?: string;
  type?: string | string[];
  format?: string;
  description?: string;
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, SchemaObject>;
  required?: string[];
  items?: SchemaObject;
  anyOf?: SchemaObject[];
  oneOf?: SchemaObject[];
  allOf?: SchemaObject[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  default?: unknown;
}

export interface ParameterObject {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  description?: string;
  schema?: SchemaObject;
}

export interface MediaObject {
  schema?: SchemaObject;
}

export interface OperationObject {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  security?: Array<Record<string, string[]>>;
  parameters?: ParameterObject[];
  requestBody?: { required?: boolean; content?: Record<string, MediaObject> };
  responses?: Record<string, { description?: string; content?: Record<string, MediaObject> }>;
}

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  servers?: Array<{ url: string }>;
  paths?: Record<string, Record<string, OperationObject>>;
  components?: {
    schemas?: Record<string, SchemaObject>;
    securitySchemes?: Record<string, { type: string; scheme?: string; description?: string }>;
  };
  security?: Array<Record<string, string[]>>;
}

export const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export interface Operation extends OperationObject {
  method: HttpMethod;
  path: string;
}

export interface TagGroup {
  tag: string;
  operations: Operation[];
}

/** Operations grouped by their first tag, in the document's order; untagged ones last. */
export function groupByTag(document: OpenApiDocument): TagGroup[] {
  const groups = new Map<string, Operation[]>();
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const tag = operation.tags?.[0] ?? 'Other';
      groups.set(tag, [...(groups.get(tag) ?? []), { ...operation, method, path }]);
    }
  }
  const entries = [...groups.entries()].map(([tag, operations]) => ({ tag, operations }));
  // System endpoints (health) matter least to a reader; keep them at the end.
  return entries.sort((a, b) => Number(a.tag === 'System' || a.tag === 'Other') - Number(b.tag === 'System' || b.tag === 'Other'));
}

/** Follows a local `#/components/schemas/...` reference. */
export function resolveSchema(document: OpenApiDocument, schema: SchemaObject | undefined): SchemaObject | undefined {
  if (!schema?.$ref) return schema;
  const name = schema.$ref.replace('#/components/schemas/', '');
  return document.components?.schemas?.[name];
}

export const refName = (schema: SchemaObject | undefined) => schema?.$ref?.split('/').pop();

/** A short human type: `string (uuid)`, `"live" | "test"`, `array of Tag`, ... */
export function describeType(schema: SchemaObject | undefined): string {
  if (!schema) return 'any';
  if (schema.$ref) return refName(schema) ?? 'object';
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  const union = schema.anyOf ?? schema.oneOf;
  if (union) return union.map(describeType).join(' | ');
  if (schema.allOf) return schema.allOf.map(describeType).join(' & ');
  const type = Array.isArray(schema.type) ? schema.type.join(' | ') : schema.type;
  if (type === 'array') return `array of ${describeType(schema.items)}`;
  if (schema.format) return `${type ?? 'string'} (${schema.format})`;
  return type ?? 'object';
}

/** A one-line summary of a field's limits. */
export function describeLimits(schema: SchemaObject | undefined): string | null {
  if (!schema) return null;
  const limits: string[] = [];
  if (schema.minLength !== undefined) limits.push(`min length ${schema.minLength}`);
  if (schema.maxLength !== undefined) limits.push(`max length ${schema.maxLength}`);
  if (schema.minimum !== undefined) limits.push(`≥ ${schema.minimum}`);
  if (schema.maximum !== undefined) limits.push(`≤ ${schema.maximum}`);
  if (schema.default !== undefined) limits.push(`default ${JSON.stringify(schema.default)}`);
  return limits.length > 0 ? limits.join(', ') : null;
}

export const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

export const isPublic = (document: OpenApiDocument, operation: OperationObject) => (operation.security ?? document.security ?? []).length === 0;
