CREATE TABLE "contact_properties" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"key" text NOT NULL,
	"type" text NOT NULL,
	"fallback_value" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "topics" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"default_subscription" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "contact_properties" ADD CONSTRAINT "contact_properties_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "topics" ADD CONSTRAINT "topics_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "contact_properties_org_key_unique" ON "contact_properties" USING btree ("organization_id","key");--> statement-breakpoint
CREATE INDEX "contact_properties_org_idx" ON "contact_properties" USING btree ("organization_id","id");--> statement-breakpoint
CREATE INDEX "topics_org_idx" ON "topics" USING btree ("organization_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "topics_org_name_unique" ON "topics" USING btree ("organization_id",lower("name"));