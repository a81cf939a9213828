ALTER TABLE "emails" ADD COLUMN "message_date" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "emails" ADD COLUMN "recipient_states" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "emails" ADD COLUMN "tracked_links" text[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "emails" ADD COLUMN "sent_at" timestamp with time zone;