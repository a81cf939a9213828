-- A DKIM key names its organization, so the organization's erasure takes the retired keys of its deleted domains too.
ALTER TABLE "dkim_keys" ADD COLUMN "organization_id" uuid;--> statement-breakpoint
UPDATE "dkim_keys" SET "organization_id" = "domains"."organization_id" FROM "domains" WHERE "domains"."id" = "dkim_keys"."domain_id";--> statement-breakpoint
-- Retired keys of domains deleted before now name no one: nothing reads them (their private key is wiped), and no erasure could find them.
DELETE FROM "dkim_keys" WHERE "organization_id" IS NULL;--> statement-breakpoint
ALTER TABLE "dkim_keys" ALTER COLUMN "organization_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "dkim_keys" ADD CONSTRAINT "dkim_keys_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "dkim_keys_organization_idx" ON "dkim_keys" USING btree ("organization_id");
