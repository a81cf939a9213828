CREATE TABLE "overage_meter_reports" (
	"organization_id" uuid NOT NULL,
	"month" date NOT NULL,
	"thousand" integer NOT NULL,
	"value_millicents" integer NOT NULL,
	"identifier" text NOT NULL,
	"reported_at" timestamp with time zone NOT NULL,
	CONSTRAINT "overage_meter_reports_organization_id_month_thousand_pk" PRIMARY KEY("organization_id","month","thousand")
);
--> statement-breakpoint
ALTER TABLE "overage_meter_reports" ADD CONSTRAINT "overage_meter_reports_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;