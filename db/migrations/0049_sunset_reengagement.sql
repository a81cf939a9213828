ALTER TABLE "audience_memberships" ADD COLUMN "reengaged_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "audiences" ADD COLUMN "sunset_reengagement_template_id" uuid;--> statement-breakpoint
ALTER TABLE "audiences" ADD COLUMN "sunset_reengagement_from" text;--> statement-breakpoint
ALTER TABLE "audiences" ADD COLUMN "sunset_grace_days" integer;--> statement-breakpoint
ALTER TABLE "audiences" ADD COLUMN "sunset_reengagement_error" text;--> statement-breakpoint
ALTER TABLE "audiences" ADD CONSTRAINT "audiences_sunset_reengagement_template_id_templates_id_fk" FOREIGN KEY ("sunset_reengagement_template_id") REFERENCES "public"."templates"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audiences" ADD CONSTRAINT "audiences_sunset_grace_days_range" CHECK ("audiences"."sunset_grace_days" between 1 and 90);--> statement-breakpoint
ALTER TABLE "audiences" ADD CONSTRAINT "audiences_sunset_reengagement_whole" CHECK (("audiences"."sunset_reengagement_from" is null) = ("audiences"."sunset_grace_days" is null));