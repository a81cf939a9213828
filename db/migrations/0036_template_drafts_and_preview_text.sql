ALTER TABLE "templates" ADD COLUMN "declared_variables" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "drafts" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "published_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "draft" jsonb;--> statement-breakpoint
ALTER TABLE "broadcasts" ADD COLUMN "preview_text" text;--> statement-breakpoint
-- Templates saved before drafts existed send what they hold: published when last changed.
UPDATE "templates" SET "published_at" = "updated_at";
