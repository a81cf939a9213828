ALTER TABLE "broadcasts" ADD COLUMN "opened_human" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "broadcasts" ADD COLUMN "clicked_human" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Opens and clicks recorded before machines were told apart count as people's, as their events do.
UPDATE "broadcasts" SET "opened_human" = "opened", "clicked_human" = "clicked";
