import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './organizations';
import { API_KEY_DIALECTS, API_KEY_MODES, API_KEY_PERMISSIONS } from '@/server/vocabulary/api-keys';

export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** The first characters of the secret, so people can tell keys apart. */
    tokenStart: text('token_start').notNull(),
    /** SHA-256 of the secret; the secret itself is never stored. */
    keyHash: text('key_hash').notNull().unique(),
    /** full_access | sending_access */
    permission: text('permission', { enum: API_KEY_PERMISSIONS }).notNull(),
    /** live | test */
    mode: text('mode', { enum: API_KEY_MODES }).notNull(),
    /** Pins a sending_access key to one sending domain. */
    domainId: uuid('domain_id'),
    /** spec | resend: the shape of the key's REST answers (server/http/dialect/). */
    dialect: text('dialect', { enum: API_KEY_DIALECTS }).notNull().default('spec'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    /** When the key last authenticated a request or an SMTP login, to the minute (admission writes it at most once a minute). */
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [index('api_keys_org_idx').on(t.organizationId, t.id), index('api_keys_domain_idx').on(t.domainId)],
);
