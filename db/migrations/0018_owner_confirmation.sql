CREATE TABLE "owner_confirmations" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"email" text NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "owner_confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "owner_confirmations" ADD CONSTRAINT "owner_confirmations_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "owner_confirmations_token_unique" ON "owner_confirmations" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "owner_confirmations_org_idx" ON "owner_confirmations" USING btree ("organization_id","created_at");--> statement-breakpoint
-- Organizations the operator's CLI created (no member: a sign-up always makes its owner a member) are
-- confirmed, as org:create now does; dashboard sign-ups made before this change stay unconfirmed and must confirm.
UPDATE "organizations" SET "owner_confirmed_at" = "created_at" WHERE NOT EXISTS (SELECT 1 FROM "members" WHERE "members"."organization_id" = "organizations"."id");
