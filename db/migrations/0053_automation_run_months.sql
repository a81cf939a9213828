CREATE TABLE "automation_run_months" (
	"organization_id" uuid NOT NULL,
	"month" text NOT NULL,
	"started" integer NOT NULL,
	CONSTRAINT "automation_run_months_organization_id_month_pk" PRIMARY KEY("organization_id","month")
);
--> statement-breakpoint
ALTER TABLE "automation_run_months" ADD CONSTRAINT "automation_run_months_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;