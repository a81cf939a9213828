ALTER TABLE "email_attachments" ADD COLUMN "content_id" text;--> statement-breakpoint
ALTER TABLE "emails" ADD COLUMN "submitted_via" text;