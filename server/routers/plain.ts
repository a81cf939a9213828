import type { PlainRoute } from '../trpc/plain-route';
import { contactImportRoute } from './contact-imports/create';
import { emailAttachmentRoute } from './emails/attachment';
import { emailBatchRoute } from './emails/batch';
import { emailBatchPreflightRoute } from './emails/batch-preflight';
import { suppressionExportRoute } from './suppressions/export';

/** REST operations served outside trpc-to-openapi (top-level array bodies, CSV, a multipart upload); each says why where it is defined. */
export const PLAIN_ROUTES: PlainRoute[] = [emailBatchRoute, emailBatchPreflightRoute, emailAttachmentRoute, suppressionExportRoute, contactImportRoute];
