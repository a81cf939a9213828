CREATE TABLE "notification_confirmations" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"email" text NOT NULL,
	"token_hash" text NOT NULL,
	"requested_by" text,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"replaced_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "organization_exports" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"content" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "notification_email" text;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "deletion_requested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "erase_after" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "notification_confirmations" ADD CONSTRAINT "notification_confirmations_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_confirmations" ADD CONSTRAINT "notification_confirmations_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_exports" ADD CONSTRAINT "organization_exports_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "notification_confirmations_token_unique" ON "notification_confirmations" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "notification_confirmations_org_idx" ON "notification_confirmations" USING btree ("organization_id","created_at");--> statement-breakpoint
CREATE INDEX "organization_exports_org_idx" ON "organization_exports" USING btree ("organization_id","created_at");