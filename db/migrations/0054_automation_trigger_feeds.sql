CREATE TABLE "automation_date_sweeps" (
	"automation_id" uuid PRIMARY KEY NOT NULL,
	"swept_on" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "automation_email_feeds" (
	"organization_id" uuid PRIMARY KEY NOT NULL,
	"after_id" uuid,
	"from_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "automation_date_sweeps" ADD CONSTRAINT "automation_date_sweeps_automation_id_automations_id_fk" FOREIGN KEY ("automation_id") REFERENCES "public"."automations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "automation_email_feeds" ADD CONSTRAINT "automation_email_feeds_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;