CREATE TABLE "plan_change_requests" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"from_plan" text NOT NULL,
	"plan" text NOT NULL,
	"requested_by" text,
	"requested_by_email" text NOT NULL,
	"requested_at" timestamp with time zone NOT NULL,
	"resolved_at" timestamp with time zone,
	"resolution" text
);
--> statement-breakpoint
ALTER TABLE "plan_change_requests" ADD CONSTRAINT "plan_change_requests_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_change_requests" ADD CONSTRAINT "plan_change_requests_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "plan_change_requests_open_unique" ON "plan_change_requests" USING btree ("organization_id") WHERE "plan_change_requests"."resolved_at" is null;--> statement-breakpoint
CREATE INDEX "plan_change_requests_open_idx" ON "plan_change_requests" USING btree ("requested_at") WHERE "plan_change_requests"."resolved_at" is null;