import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import busboy from 'busboy';
import type { Deps } from '../../deps';
import { AppError, validationError } from '../../errors';
import { discardImport, receiveImportFile, type ReceivedFile } from '../../services/contact-imports/receive';
import { queueContactImport } from '../../services/contact-imports/queue';
import type { ContactImportView } from '../../services/contact-imports/view';
import type { Principal } from '../../services/shared/principal';
import { IMPORT_FIELDS, importOptionsOf, type ImportField } from './wire';

/** The form's text fields: a JSON `column_map` with a hundred properties is a few KiB. */
const FIELD_MAX_BYTES = 64 * 1024;
/** What the form may carry beside the file: its text fields and the parts' headers. */
const FORM_OVERHEAD_BYTES = IMPORT_FIELDS.length * FIELD_MAX_BYTES + 64 * 1024;
const CLOSE = { Connection: 'close' };

const isImportField = (name: string): name is ImportField => (IMPORT_FIELDS as readonly string[]).includes(name);

/**
 * `POST /contacts/imports`, for the REST route and the dashboard's alike: the multipart form read
 * as it arrives (busboy), its file stored piece by piece as it streams in (never whole in memory,
 * past the API's JSON body bound: CONTACT_IMPORT_MAX_BYTES), its text fields checked, then the
 * import queued. A refusal discards what was stored.
 */
export async function importFromForm(deps: Deps, principal: Principal, request: { headers: IncomingHttpHeaders; body: Readable }): Promise<ContactImportView> {
  const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  const maxBytes = deps.config.contactImportMaxBytes;
  if (type !== 'multipart/form-data') {
    request.body.resume();
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the import as multipart/form-data: the CSV file in a field named file, and column_map, segments, topics and on_conflict beside it', CLOSE);
  }
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes + FORM_OVERHEAD_BYTES) {
    request.body.resume();
    throw new AppError('PAYLOAD_TOO_LARGE', `file: larger than ${maxBytes.toLocaleString('en')} bytes; split it into several imports`, CLOSE);
  }
  const form = await readForm(deps, principal, request, maxBytes);
  try {
    if (form.problem) throw form.problem;
    if (!form.file) throw validationError('file: required: the CSV file, in a form field named file');
    return await queueContactImport(deps, principal, form.file, importOptionsOf(form.fields));
  } catch (error) {
    if (form.file) await discardImport(deps, form.file.importId);
    throw error;
  }
}

interface Form {
  file: ReceivedFile | null;
  fields: Map<ImportField, string>;
  /** The first thing wrong with the form's parts (the file is still stored, then discarded). */
  problem: AppError | null;
}

function readForm(deps: Deps, principal: Principal, request: { headers: IncomingHttpHeaders; body: Readable }, maxBytes: number): Promise<Form> {
  const form: Form = { file: null, fields: new Map(), problem: null };
  const note = (message: string) => (form.problem ??= validationError(message));
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: request.headers, limits: { fileSize: maxBytes + 1, files: 1, fields: IMPORT_FIELDS.length, fieldSize: FIELD_MAX_BYTES, parts: IMPORT_FIELDS.length + 1 } });
  } catch {
    request.body.resume();
    return Promise.reject(validationError('The multipart/form-data body has no boundary in its Content-Type'));
  }
  return new Promise<Form>((resolve, reject) => {
    let storing: Promise<void> | null = null;
    let stream: Readable | null = null;
    let failed = false;
    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      // Nothing more is read: the answer closes the connection.
      request.body.unpipe(parser);
      request.body.resume();
      stream?.destroy();
      // A store cut short fails and discards itself; one that ended whole is discarded here.
      void (storing ?? Promise.resolve())
        .then(() => (form.file ? discardImport(deps, form.file.importId) : undefined))
        .catch(() => undefined)
        .finally(() => reject(error));
    };
    parser.on('file', (name, file, info) => {
      if (name !== 'file' || form.file || storing) {
        note(name === 'file' ? 'file: sent twice; an import takes one file' : `${name}: unknown field; the CSV goes in the field named file`);
        file.resume();
        return;
      }
      stream = file;
      storing = receiveImportFile(deps, principal, { fileName: info.filename?.slice(0, 255) || null, source: file, maxBytes }).then(
        (received) => void (form.file = received),
        (error: unknown) => {
          storing = null;
          fail(error);
        },
      );
    });
    parser.on('field', (name, value, info) => {
      if (name === 'file') return void note('file: must be the CSV file itself (a file part), not text');
      if (!isImportField(name)) return void note(`${name}: unknown field (the form takes file, ${IMPORT_FIELDS.join(', ')})`);
      if (form.fields.has(name)) return void note(`${name}: sent twice; send it once${name === 'segments' || name === 'topics' ? ', as one JSON array' : ''}`);
      if (info.valueTruncated) return void note(`${name}: longer than ${FIELD_MAX_BYTES / 1024} KiB`);
      form.fields.set(name, value);
    });
    parser.on('filesLimit', () => note('file: sent twice; an import takes one file'));
    parser.on('fieldsLimit', () => note(`The form has more fields than it takes (file, ${IMPORT_FIELDS.join(', ')})`));
    parser.on('partsLimit', () => note(`The form has more parts than it takes (file, ${IMPORT_FIELDS.join(', ')})`));
    parser.on('error', (error: unknown) => fail(validationError(`The multipart/form-data body cannot be read: ${error instanceof Error ? error.message : String(error)}`)));
    parser.on('close', () => {
      if (failed) return;
      void (storing ?? Promise.resolve()).then(() => {
        if (!failed) resolve(form);
      });
    });
    request.body.on('error', fail);
    request.body.pipe(parser);
  });
}
