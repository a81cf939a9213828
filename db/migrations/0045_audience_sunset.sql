ALTER TABLE "audience_memberships" ADD COLUMN "sunset_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "audiences" ADD COLUMN "sunset_after_months" integer;--> statement-breakpoint
CREATE INDEX "audience_memberships_sunset_idx" ON "audience_memberships" USING btree ("contact_id") WHERE "audience_memberships"."sunset_at" is not null;--> statement-breakpoint
ALTER TABLE "audiences" ADD CONSTRAINT "audiences_sunset_after_months_range" CHECK ("audiences"."sunset_after_months" between 1 and 36);--> statement-breakpoint
-- Sunset by human engagement (docs/audiences.md, "Sunset"). Each move of a membership's sunset_at is
-- a consent-ledger entry: `sunset` when the run sets it, `sunset_lifted` when it is cleared. The
-- via is the transaction's declared source, else the opt-in's own via when a new opt-in lifted it
-- (`eumail.sunset_lift_via`, set below for the length of that update), else `sunset`.
CREATE FUNCTION consent_of_sunset() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  address text;
BEGIN
  SELECT email INTO address FROM contacts WHERE id = NEW.contact_id;
  PERFORM consent_append(NEW.organization_id, NEW.contact_id, address, CASE WHEN NEW.sunset_at IS NULL THEN 'sunset_lifted' ELSE 'sunset' END, NEW.audience_id, NULL,
    coalesce(nullif(current_setting('eumail.sunset_lift_via', true), ''), 'sunset'), NULL, coalesce(NEW.sunset_at, NEW.updated_at));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER consent_membership_sunset AFTER UPDATE OF sunset_at ON audience_memberships FOR EACH ROW WHEN (OLD.sunset_at IS DISTINCT FROM NEW.sunset_at) EXECUTE FUNCTION consent_of_sunset();
--> statement-breakpoint
-- A human open or click lifts the contact's sunset in every audience. The engagement summary only
-- ever moves forward and counts no machine (services/contacts/engagement.ts), so whichever
-- statement records the open, this is where its sunset ends.
CREATE FUNCTION sunset_lifted_by_engagement() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  engaged timestamptz := greatest(NEW.last_opened_at, NEW.last_clicked_at);
BEGIN
  UPDATE audience_memberships SET sunset_at = NULL, updated_at = greatest(updated_at, engaged)
  WHERE contact_id = NEW.id AND sunset_at IS NOT NULL AND sunset_at <= engaged;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER sunset_lifted_by_engagement AFTER UPDATE OF last_opened_at, last_clicked_at ON contacts FOR EACH ROW
  WHEN (NEW.last_opened_at IS DISTINCT FROM OLD.last_opened_at OR NEW.last_clicked_at IS DISTINCT FROM OLD.last_clicked_at) EXECUTE FUNCTION sunset_lifted_by_engagement();
--> statement-breakpoint
-- A new opt-in is a ledger entry `subscribed` or `confirmed`, whichever path wrote it: one naming an
-- audience lifts the sunset there, one for the whole contact (no audience) lifts it everywhere.
CREATE FUNCTION sunset_lifted_by_opt_in() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Most opt-ins (every new contact and membership) find nothing sunset: one probe of the partial index.
  IF NOT EXISTS (SELECT 1 FROM audience_memberships WHERE contact_id = NEW.contact_id AND sunset_at IS NOT NULL) THEN
    RETURN NULL;
  END IF;
  PERFORM set_config('eumail.sunset_lift_via', NEW.via, true);
  UPDATE audience_memberships SET sunset_at = NULL, updated_at = greatest(updated_at, NEW.created_at)
  WHERE contact_id = NEW.contact_id AND sunset_at IS NOT NULL AND (NEW.audience_id IS NULL OR audience_id = NEW.audience_id);
  PERFORM set_config('eumail.sunset_lift_via', '', true);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER sunset_lifted_by_opt_in AFTER INSERT ON consent_entries FOR EACH ROW
  WHEN (NEW.action IN ('subscribed', 'confirmed') AND NEW.contact_id IS NOT NULL) EXECUTE FUNCTION sunset_lifted_by_opt_in();
