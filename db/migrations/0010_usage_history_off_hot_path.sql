ALTER TABLE "usage_counters" ADD COLUMN "month_overage_recipients" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "usage_counters" ADD COLUMN "month_overage_millicents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "usage_counters" ADD COLUMN "previous_day" date;--> statement-breakpoint
ALTER TABLE "usage_counters" ADD COLUMN "previous_day_recipients" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "usage_counters" ADD COLUMN "previous_month" date;--> statement-breakpoint
ALTER TABLE "usage_counters" ADD COLUMN "previous_month_overage_recipients" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "usage_counters" ADD COLUMN "previous_month_overage_millicents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "usage_days" DROP COLUMN "overage_recipients";--> statement-breakpoint
ALTER TABLE "usage_days" DROP COLUMN "overage_cost_millicents";