CREATE TABLE "consent_entries" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "consent_entries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"organization_id" uuid NOT NULL,
	"contact_id" uuid,
	"email" text,
	"email_hash" text,
	"action" text NOT NULL,
	"audience_id" uuid,
	"topic_id" uuid,
	"via" text NOT NULL,
	"api_key_id" uuid,
	"user_id" text,
	"import_id" uuid,
	"form_id" uuid,
	"form_version" integer,
	"email_id" uuid,
	"client_address" text,
	"user_agent" text,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "consent_entries_address_or_hash" CHECK ("consent_entries"."email" is not null or "consent_entries"."email_hash" is not null)
);
--> statement-breakpoint
CREATE INDEX "consent_entries_contact_idx" ON "consent_entries" USING btree ("organization_id","contact_id","id");--> statement-breakpoint
CREATE INDEX "consent_entries_email_idx" ON "consent_entries" USING btree ("organization_id","email");--> statement-breakpoint
-- The consent ledger is written by the database (docs/consent.md): a path that changes consent
-- cannot leave its entry out. What the change came through is the writing transaction's
-- declaration (`eumail.consent_source`, a JSON object: server/services/consent/source.ts).
CREATE FUNCTION consent_append(org uuid, contact uuid, address text, act text, audience uuid, topic uuid, fallback_via text, mail uuid, at timestamptz, address_hash text DEFAULT NULL) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  s jsonb := coalesce(nullif(current_setting('eumail.consent_source', true), ''), '{}')::jsonb;
BEGIN
  INSERT INTO consent_entries (organization_id, contact_id, email, email_hash, action, audience_id, topic_id, via, api_key_id, user_id, import_id, form_id, form_version, email_id, client_address, user_agent, created_at)
  VALUES (org, contact, address, address_hash, act, audience, topic, coalesce(s->>'via', fallback_via), (s->>'apiKeyId')::uuid, s->>'userId', (s->>'importId')::uuid,
    (s->>'formId')::uuid, (s->>'formVersion')::int, coalesce((s->>'emailId')::uuid, mail), s->>'clientAddress', s->>'userAgent',
    coalesce(at, (s->>'at')::timestamptz, now()));
END $$;
--> statement-breakpoint
CREATE FUNCTION consent_of_contact() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM consent_append(NEW.organization_id, NEW.id, NEW.email, CASE WHEN NEW.unsubscribed THEN 'unsubscribed' ELSE 'subscribed' END, NULL, NULL, 'unrecorded', NULL, NEW.updated_at);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER consent_contact_created AFTER INSERT ON contacts FOR EACH ROW EXECUTE FUNCTION consent_of_contact();
--> statement-breakpoint
CREATE TRIGGER consent_contact_changed AFTER UPDATE OF unsubscribed ON contacts FOR EACH ROW WHEN (OLD.unsubscribed IS DISTINCT FROM NEW.unsubscribed) EXECUTE FUNCTION consent_of_contact();
--> statement-breakpoint
-- A rule segment's memberships are computed, not given: only a change of their subscription is consent.
CREATE FUNCTION consent_of_membership() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  address text;
BEGIN
  IF TG_OP = 'INSERT' AND EXISTS (SELECT 1 FROM audiences WHERE id = NEW.audience_id AND rules IS NOT NULL) THEN
    RETURN NULL;
  END IF;
  SELECT email INTO address FROM contacts WHERE id = NEW.contact_id;
  PERFORM consent_append(NEW.organization_id, NEW.contact_id, address, CASE WHEN NEW.subscribed THEN 'subscribed' ELSE 'unsubscribed' END, NEW.audience_id, NULL, 'unrecorded', NULL, NEW.updated_at);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER consent_membership_created AFTER INSERT ON audience_memberships FOR EACH ROW EXECUTE FUNCTION consent_of_membership();
--> statement-breakpoint
CREATE TRIGGER consent_membership_changed AFTER UPDATE OF subscribed ON audience_memberships FOR EACH ROW WHEN (OLD.subscribed IS DISTINCT FROM NEW.subscribed) EXECUTE FUNCTION consent_of_membership();
--> statement-breakpoint
CREATE FUNCTION consent_of_topic_choice() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  address text;
BEGIN
  SELECT email INTO address FROM contacts WHERE id = NEW.contact_id;
  PERFORM consent_append(NEW.organization_id, NEW.contact_id, address, CASE WHEN NEW.subscribed THEN 'topic_in' ELSE 'topic_out' END, NULL, NEW.topic_id, 'unrecorded', NULL, NEW.updated_at);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER consent_topic_choice_created AFTER INSERT ON contact_topics FOR EACH ROW EXECUTE FUNCTION consent_of_topic_choice();
--> statement-breakpoint
CREATE TRIGGER consent_topic_choice_changed AFTER UPDATE OF subscribed ON contact_topics FOR EACH ROW WHEN (OLD.subscribed IS DISTINCT FROM NEW.subscribed) EXECUTE FUNCTION consent_of_topic_choice();
--> statement-breakpoint
-- A bounce or complaint says what it came through by its reason; an erased address's entry is recorded by its hash, tied to no contact.
CREATE FUNCTION consent_of_suppression() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  entry suppressions;
  contact uuid;
BEGIN
  IF TG_OP = 'DELETE' THEN entry := OLD; ELSE entry := NEW; END IF;
  -- An erasure's clean-up of an address's other entries leaves it suppressed by its hashed one;
  -- an organization's erasure takes its ledger with it.
  IF TG_OP = 'DELETE' AND (coalesce(nullif(current_setting('eumail.consent_source', true), ''), '{}')::jsonb->>'via' = 'erasure'
      OR NOT EXISTS (SELECT 1 FROM organizations WHERE id = entry.organization_id)) THEN
    RETURN NULL;
  END IF;
  IF entry.email IS NOT NULL THEN
    SELECT id INTO contact FROM contacts WHERE organization_id = entry.organization_id AND email = entry.email;
  END IF;
  PERFORM consent_append(entry.organization_id, contact, entry.email, CASE WHEN TG_OP = 'DELETE' THEN 'unsuppressed' ELSE 'suppressed' END, NULL, NULL,
    CASE WHEN TG_OP = 'INSERT' AND entry.reason IN ('bounce', 'complaint') THEN entry.reason ELSE 'unrecorded' END,
    entry.email_id, CASE WHEN TG_OP = 'INSERT' THEN entry.created_at END, entry.email_hash);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER consent_suppression_added AFTER INSERT ON suppressions FOR EACH ROW EXECUTE FUNCTION consent_of_suppression();
--> statement-breakpoint
CREATE TRIGGER consent_suppression_removed AFTER DELETE ON suppressions FOR EACH ROW EXECUTE FUNCTION consent_of_suppression();
--> statement-breakpoint
-- Nothing rewrites an entry but an erasure: the address replaced by its keyed hash, the client's address and agent dropped.
CREATE FUNCTION consent_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.email IS NULL AND NEW.email_hash IS NOT NULL AND NEW.client_address IS NULL AND NEW.user_agent IS NULL
    AND (NEW.id, NEW.organization_id, NEW.contact_id, NEW.action, NEW.audience_id, NEW.topic_id, NEW.via, NEW.api_key_id, NEW.user_id,
      NEW.import_id, NEW.form_id, NEW.form_version, NEW.email_id, NEW.created_at)
    IS NOT DISTINCT FROM (OLD.id, OLD.organization_id, OLD.contact_id, OLD.action, OLD.audience_id, OLD.topic_id, OLD.via, OLD.api_key_id,
      OLD.user_id, OLD.import_id, OLD.form_id, OLD.form_version, OLD.email_id, OLD.created_at) THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'consent entries are append-only (an erasure may only replace the address by its hash)' USING ERRCODE = 'integrity_constraint_violation';
END $$;
--> statement-breakpoint
CREATE TRIGGER consent_entries_append_only BEFORE UPDATE ON consent_entries FOR EACH ROW EXECUTE FUNCTION consent_entries_append_only();
--> statement-breakpoint
CREATE FUNCTION consent_entries_of_deleted_organizations() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM consent_entries WHERE organization_id IN (SELECT id FROM gone);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER consent_entries_of_deleted_organizations AFTER DELETE ON organizations REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION consent_entries_of_deleted_organizations();
--> statement-breakpoint
-- What every contact stood at when the ledger began: one entry per standing, how it came unknown.
INSERT INTO consent_entries (organization_id, contact_id, email, action, via, created_at)
SELECT organization_id, id, email, CASE WHEN unsubscribed THEN 'unsubscribed' ELSE 'subscribed' END, 'before_ledger', updated_at FROM contacts ORDER BY id;
--> statement-breakpoint
INSERT INTO consent_entries (organization_id, contact_id, email, action, audience_id, via, created_at)
SELECT m.organization_id, m.contact_id, c.email, CASE WHEN m.subscribed THEN 'subscribed' ELSE 'unsubscribed' END, m.audience_id, 'before_ledger', m.updated_at
FROM audience_memberships m JOIN contacts c ON c.id = m.contact_id JOIN audiences a ON a.id = m.audience_id
WHERE a.rules IS NULL OR NOT m.subscribed ORDER BY m.contact_id, m.audience_id;
--> statement-breakpoint
INSERT INTO consent_entries (organization_id, contact_id, email, action, topic_id, via, created_at)
SELECT t.organization_id, t.contact_id, c.email, CASE WHEN t.subscribed THEN 'topic_in' ELSE 'topic_out' END, t.topic_id, 'before_ledger', t.updated_at
FROM contact_topics t JOIN contacts c ON c.id = t.contact_id ORDER BY t.contact_id, t.topic_id;
--> statement-breakpoint
INSERT INTO consent_entries (organization_id, contact_id, email, email_hash, action, email_id, via, created_at)
SELECT s.organization_id, c.id, s.email, s.email_hash, 'suppressed', s.email_id, 'before_ledger', s.created_at
FROM suppressions s LEFT JOIN contacts c ON c.organization_id = s.organization_id AND c.email = s.email ORDER BY s.id;
