ALTER TABLE "events" DROP CONSTRAINT "events_organization_id_organizations_id_fk";
--> statement-breakpoint
ALTER TABLE "email_events" DROP CONSTRAINT "email_events_email_id_emails_id_fk";
--> statement-breakpoint
ALTER TABLE "emails" DROP CONSTRAINT "emails_organization_id_organizations_id_fk";
--> statement-breakpoint
ALTER TABLE "email_recipients" DROP CONSTRAINT "email_recipients_email_id_emails_id_fk";
--> statement-breakpoint
-- The rows written on every send and every delivery (emails, their recipients and history, the
-- event log) no longer check a foreign key per row: those checks cost a store as much as its
-- inserts, and each locked the organization's row. Their parents are known to exist where they
-- are written (the same statement, or a locked row). Deleting a parent still deletes them, once
-- per statement instead of once per row.
CREATE FUNCTION "emails_delete_dependents"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "email_recipients" WHERE "email_id" IN (SELECT "id" FROM "gone");
  DELETE FROM "email_events" WHERE "email_id" IN (SELECT "id" FROM "gone");
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "emails_delete_dependents" AFTER DELETE ON "emails" REFERENCING OLD TABLE AS "gone" FOR EACH STATEMENT EXECUTE FUNCTION "emails_delete_dependents"();
--> statement-breakpoint
CREATE FUNCTION "organizations_delete_activity"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "emails" WHERE "organization_id" IN (SELECT "id" FROM "gone");
  DELETE FROM "events" WHERE "organization_id" IN (SELECT "id" FROM "gone");
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "organizations_delete_activity" AFTER DELETE ON "organizations" REFERENCING OLD TABLE AS "gone" FOR EACH STATEMENT EXECUTE FUNCTION "organizations_delete_activity"();
