/** Every operation of SPEC.md's endpoint tables, relative to {base_url}. Routes land issue by issue. */
export const SPEC_OPERATIONS = [
  'POST /emails', 'GET /emails', 'POST /emails/batch', 'GET /emails/{id}', 'PATCH /emails/{id}', 'POST /emails/{id}/cancel',
  'POST /domains', 'GET /domains', 'GET /domains/{id}', 'DELETE /domains/{id}', 'GET /domains/{id}/domain-connect', 'POST /domains/{id}/verify',
  'POST /api-keys', 'GET /api-keys', 'DELETE /api-keys/{id}',
  'POST /audiences', 'GET /audiences', 'DELETE /audiences/{id}',
  'POST /audiences/{id}/contacts', 'GET /audiences/{id}/contacts', 'POST /audiences/{id}/contacts/batch',
  'POST /audiences/{id}/contacts/batch-delete', 'GET /audiences/{id}/contacts/{contactId}',
  'PATCH /audiences/{id}/contacts/{contactId}', 'DELETE /audiences/{id}/contacts/{contactId}',
  'GET /suppressions', 'POST /suppressions', 'POST /suppressions/batch', 'GET /suppressions/export', 'DELETE /suppressions/{id}',
  'POST /templates', 'GET /templates', 'GET /templates/{id}', 'GET /templates/{id}/preview', 'PATCH /templates/{id}', 'DELETE /templates/{id}',
  'POST /broadcasts', 'GET /broadcasts', 'GET /broadcasts/{id}', 'PATCH /broadcasts/{id}', 'POST /broadcasts/{id}/send',
  'POST /broadcasts/{id}/test', 'POST /broadcasts/{id}/cancel', 'DELETE /broadcasts/{id}',
  'POST /webhooks', 'GET /webhooks', 'GET /webhooks/{id}', 'PATCH /webhooks/{id}', 'DELETE /webhooks/{id}',
  'GET /webhooks/{id}/secret', 'POST /webhooks/{id}/rotate-secret',
  'GET /health', 'GET /health/ready',
];

/** Operations we serve beyond the spec's tables, each documented in docs/api-conventions.md. */
export const EXTRA_OPERATIONS: string[] = [
  'GET /emails/{id}/attachments/{attachmentId}',
  'POST /webhooks/{id}/test',
  'GET /webhooks/{id}/deliveries',
  'GET /webhooks/{id}/deliveries/{deliveryId}',
  'POST /webhooks/{id}/deliveries/{deliveryId}/replay',
  'GET /events',
  'GET /usage',
  'GET /audiences/{id}',
  'GET /broadcasts/{id}/preflight',
  'PATCH /domains/{id}',
  'POST /emails/preflight',
  'POST /emails/batch/preflight',
  'GET /emails/{id}/processing-record',
  'GET /organization/processing-activities',
  'GET /recipients/{email}/data',
  'DELETE /recipients/{email}/data',
  'POST /contact-properties', 'GET /contact-properties', 'GET /contact-properties/{id}', 'PATCH /contact-properties/{id}', 'DELETE /contact-properties/{id}',
  'POST /topics', 'GET /topics', 'GET /topics/{id}', 'PATCH /topics/{id}', 'DELETE /topics/{id}',
];
