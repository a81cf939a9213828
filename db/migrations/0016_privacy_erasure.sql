ALTER TABLE "suppressions" ALTER COLUMN "email" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "suppressions" ADD COLUMN "email_hash" text;--> statement-breakpoint
CREATE UNIQUE INDEX "suppressions_org_email_hash_unique" ON "suppressions" USING btree ("organization_id","email_hash") WHERE "suppressions"."email_hash" is not null;--> statement-breakpoint
ALTER TABLE "suppressions" ADD CONSTRAINT "suppressions_address_or_hash" CHECK ("suppressions"."email" is not null or "suppressions"."email_hash" is not null);