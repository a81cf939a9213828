CREATE TABLE "automation_versions" (
	"automation_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"organization_id" uuid NOT NULL,
	"definition" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "automation_versions_automation_id_version_pk" PRIMARY KEY("automation_id","version")
);
--> statement-breakpoint
CREATE TABLE "automations" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"name" text NOT NULL,
	"status" text NOT NULL,
	"current_version" integer NOT NULL,
	"trigger_event_name" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "automation_versions" ADD CONSTRAINT "automation_versions_automation_id_automations_id_fk" FOREIGN KEY ("automation_id") REFERENCES "public"."automations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "automations" ADD CONSTRAINT "automations_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "automations_org_idx" ON "automations" USING btree ("organization_id","id");--> statement-breakpoint
CREATE INDEX "automations_enabled_trigger_idx" ON "automations" USING btree ("organization_id","trigger_event_name") WHERE "automations"."status" = 'enabled' and "automations"."deleted_at" is null;--> statement-breakpoint
-- A version is what runs started on it execute: it is never changed, only added to (a change of an
-- automation's definition writes the next version). Deleting it with its automation stays allowed.
CREATE FUNCTION automation_versions_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'automation versions are never changed: write the next version instead' USING ERRCODE = 'integrity_constraint_violation';
END $$;
--> statement-breakpoint
CREATE TRIGGER automation_versions_immutable BEFORE UPDATE ON automation_versions FOR EACH ROW EXECUTE FUNCTION automation_versions_immutable();
