ALTER TABLE "audiences" ADD COLUMN "rules" jsonb;--> statement-breakpoint
ALTER TABLE "audiences" ADD COLUMN "rules_evaluated_at" timestamp with time zone;