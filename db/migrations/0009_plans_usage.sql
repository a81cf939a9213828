CREATE TABLE "test_clock" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"offset_ms" bigint NOT NULL,
	CONSTRAINT "test_clock_single_row" CHECK ("test_clock"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "usage_counters" (
	"organization_id" uuid PRIMARY KEY NOT NULL,
	"day" date NOT NULL,
	"day_recipients" integer DEFAULT 0 NOT NULL,
	"month" date NOT NULL,
	"month_recipients" integer DEFAULT 0 NOT NULL,
	"list_recipients" integer DEFAULT 0 NOT NULL,
	"overage_notified_month" date
);
--> statement-breakpoint
CREATE TABLE "usage_days" (
	"organization_id" uuid NOT NULL,
	"day" date NOT NULL,
	"recipients" integer DEFAULT 0 NOT NULL,
	"overage_recipients" integer DEFAULT 0 NOT NULL,
	"overage_cost_millicents" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_days_organization_id_day_pk" PRIMARY KEY("organization_id","day")
);
--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "paid_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "pool_exited_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "standing_evaluated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "busiest_recent_day" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "elevated_reason" text;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "pending_plan" text;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "pending_plan_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "usage_counters" ADD CONSTRAINT "usage_counters_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_days" ADD CONSTRAINT "usage_days_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
UPDATE "organizations" SET "paid_since" = "created_at" WHERE "plan" <> 'free';
