ALTER TABLE "organizations" ADD COLUMN "status_cause" text;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "payment_failed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "payment_grace_until" timestamp with time zone;--> statement-breakpoint
-- Every status set before this migration was the operator's.
UPDATE "organizations" SET "status_cause" = 'operator' WHERE "status" <> 'active';
