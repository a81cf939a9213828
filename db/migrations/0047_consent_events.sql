ALTER TABLE "consent_entries" ADD COLUMN "batch_id" uuid;--> statement-breakpoint
CREATE INDEX "consent_entries_batch_idx" ON "consent_entries" USING btree ("batch_id") WHERE "consent_entries"."batch_id" is not null;--> statement-breakpoint
-- Each entry keeps the mark of the transaction that declared its source (`batch`), so that
-- transaction can log its `contact.consent_changed` events from exactly its own entries.
CREATE OR REPLACE FUNCTION consent_append(org uuid, contact uuid, address text, act text, audience uuid, topic uuid, fallback_via text, mail uuid, at timestamptz, address_hash text DEFAULT NULL) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  s jsonb := coalesce(nullif(current_setting('eumail.consent_source', true), ''), '{}')::jsonb;
BEGIN
  INSERT INTO consent_entries (organization_id, contact_id, email, email_hash, action, audience_id, topic_id, via, api_key_id, user_id, import_id, form_id, form_version, email_id, client_address, user_agent, created_at, batch_id)
  VALUES (org, contact, address, address_hash, act, audience, topic, coalesce(s->>'via', fallback_via), (s->>'apiKeyId')::uuid, s->>'userId', (s->>'importId')::uuid,
    (s->>'formId')::uuid, (s->>'formVersion')::int, coalesce((s->>'emailId')::uuid, mail), s->>'clientAddress', s->>'userAgent',
    coalesce(at, (s->>'at')::timestamptz, now()), (s->>'batch')::uuid);
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION consent_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.email IS NULL AND NEW.email_hash IS NOT NULL AND NEW.client_address IS NULL AND NEW.user_agent IS NULL
    AND (NEW.id, NEW.organization_id, NEW.contact_id, NEW.action, NEW.audience_id, NEW.topic_id, NEW.via, NEW.api_key_id, NEW.user_id,
      NEW.import_id, NEW.form_id, NEW.form_version, NEW.email_id, NEW.created_at, NEW.batch_id)
    IS NOT DISTINCT FROM (OLD.id, OLD.organization_id, OLD.contact_id, OLD.action, OLD.audience_id, OLD.topic_id, OLD.via, OLD.api_key_id,
      OLD.user_id, OLD.import_id, OLD.form_id, OLD.form_version, OLD.email_id, OLD.created_at, OLD.batch_id) THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'consent entries are append-only (an erasure may only replace the address by its hash)' USING ERRCODE = 'integrity_constraint_violation';
END $$;
