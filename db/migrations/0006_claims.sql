CREATE TABLE "workers" (
	"id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"lock_key" integer NOT NULL,
	"locked_at" timestamp with time zone,
	"started_at" timestamp with time zone NOT NULL,
	"heartbeat_at" timestamp with time zone NOT NULL,
	CONSTRAINT "workers_lock_key_unique" UNIQUE("lock_key")
);
--> statement-breakpoint
ALTER TABLE "system_emails" ADD COLUMN "claimed_by" uuid;--> statement-breakpoint
ALTER TABLE "system_emails" ADD COLUMN "claimed_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "claimed_by" uuid;--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "claimed_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "emails" ADD COLUMN "claimed_by" uuid;--> statement-breakpoint
ALTER TABLE "emails" ADD COLUMN "claimed_until" timestamp with time zone;