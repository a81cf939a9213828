ALTER TABLE "templates" ADD COLUMN "from" text;--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "reply_to" text[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "alias" text;--> statement-breakpoint
CREATE UNIQUE INDEX "templates_org_alias_idx" ON "templates" USING btree ("organization_id","alias");