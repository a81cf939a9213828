CREATE TABLE "contact_confirmations" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"contact_id" uuid NOT NULL,
	"email_id" uuid,
	"from_address" text NOT NULL,
	"template_id" uuid,
	"audience_ids" uuid[] DEFAULT '{}' NOT NULL,
	"topics" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"form_id" uuid,
	"form_version" integer,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"confirmed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "pending_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "contact_confirmations" ADD CONSTRAINT "contact_confirmations_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_confirmations" ADD CONSTRAINT "contact_confirmations_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contact_confirmations_contact_idx" ON "contact_confirmations" USING btree ("contact_id","created_at");--> statement-breakpoint
CREATE INDEX "contacts_pending_idx" ON "contacts" USING btree ("pending_since") WHERE "contacts"."pending_since" is not null;--> statement-breakpoint
ALTER TABLE "contacts" ADD CONSTRAINT "contacts_pending_unsubscribed" CHECK ("contacts"."pending_since" is null or "contacts"."unsubscribed");--> statement-breakpoint
-- Double opt-in (docs/consent.md): a pending contact is not subscribed (the check above), and the
-- ledger says so: its entries read `pending`, and the change that ends it `confirmed` when its link
-- was clicked (the transaction declared via `confirmation`), else `subscribed` (the organization's
-- own act: PATCH, the dashboard) or `unsubscribed`. Replaces migration 0042's function of the same name.
CREATE OR REPLACE FUNCTION consent_of_contact() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  act text := 'subscribed';
BEGIN
  IF NEW.pending_since IS NOT NULL THEN
    act := 'pending';
  ELSIF NEW.unsubscribed THEN
    act := 'unsubscribed';
  ELSIF TG_OP = 'UPDATE' THEN
    IF OLD.pending_since IS NOT NULL AND coalesce(nullif(current_setting('eumail.consent_source', true), ''), '{}')::jsonb->>'via' = 'confirmation' THEN
      act := 'confirmed';
    END IF;
  END IF;
  PERFORM consent_append(NEW.organization_id, NEW.id, NEW.email, act, NULL, NULL, 'unrecorded', NULL, NEW.updated_at);
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Pending set or cleared while `unsubscribed` stays as it was (a change of both is the trigger of 0042's): one entry per change.
CREATE TRIGGER consent_contact_pending AFTER UPDATE OF pending_since ON contacts FOR EACH ROW WHEN (OLD.pending_since IS DISTINCT FROM NEW.pending_since AND OLD.unsubscribed IS NOT DISTINCT FROM NEW.unsubscribed) EXECUTE FUNCTION consent_of_contact();
