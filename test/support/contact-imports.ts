import type { TestApp } from './app';

/** The form of `POST /contacts/imports`: the CSV as `file`, the other fields as given (objects as JSON text, as Resend's SDKs send them). */
export function importForm(csv: string | Uint8Array<ArrayBuffer>, fields: Record<string, unknown> = {}, fileName = 'contacts.csv'): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, typeof value === 'string' ? value : JSON.stringify(value));
  form.append('file', new Blob([csv], { type: 'text/csv' }), fileName);
  return form;
}

/** Uploads a CSV for import with the key; the answer as the API gives it. */
export const uploadImport = (app: TestApp, key: string, csv: string | Uint8Array<ArrayBuffer>, fields: Record<string, unknown> = {}) =>
  app.request('POST', '/api/contacts/imports', { key, body: importForm(csv, fields) });
