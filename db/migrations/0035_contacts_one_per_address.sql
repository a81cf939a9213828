ALTER TABLE "contacts" DROP CONSTRAINT "contacts_audience_id_audiences_id_fk";
--> statement-breakpoint
DROP INDEX "contacts_audience_email_unique";--> statement-breakpoint
DROP INDEX "contacts_audience_idx";--> statement-breakpoint
ALTER TABLE "contacts" ADD CONSTRAINT "contacts_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "contacts_organization_email_unique" ON "contacts" USING btree ("organization_id","email");--> statement-breakpoint
ALTER TABLE "contacts" DROP COLUMN "audience_id";--> statement-breakpoint
ALTER TABLE "contacts" DROP COLUMN "subscribed";