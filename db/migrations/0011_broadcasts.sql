CREATE TABLE "broadcasts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"audience_id" uuid,
	"name" text NOT NULL,
	"from" text NOT NULL,
	"reply_to" text[] DEFAULT '{}' NOT NULL,
	"subject" text,
	"html" text,
	"text" text,
	"template_id" uuid,
	"status" text NOT NULL,
	"held_reason" text,
	"failed_reason" text,
	"scheduled_at" timestamp with time zone,
	"next_attempt_at" timestamp with time zone,
	"claimed_by" uuid,
	"claimed_until" timestamp with time zone,
	"last_contact_id" uuid,
	"cursor" uuid,
	"started_at" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"recipients" integer DEFAULT 0 NOT NULL,
	"queued" integer DEFAULT 0 NOT NULL,
	"suppressed" integer DEFAULT 0 NOT NULL,
	"skipped" integer DEFAULT 0 NOT NULL,
	"canceled" integer DEFAULT 0 NOT NULL,
	"sent" integer DEFAULT 0 NOT NULL,
	"delivered" integer DEFAULT 0 NOT NULL,
	"bounced" integer DEFAULT 0 NOT NULL,
	"complained" integer DEFAULT 0 NOT NULL,
	"opened" integer DEFAULT 0 NOT NULL,
	"clicked" integer DEFAULT 0 NOT NULL,
	"unsubscribed" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "emails" ADD COLUMN "broadcast_id" uuid;--> statement-breakpoint
ALTER TABLE "emails" ADD COLUMN "contact_id" uuid;--> statement-breakpoint
ALTER TABLE "broadcasts" ADD CONSTRAINT "broadcasts_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcasts" ADD CONSTRAINT "broadcasts_audience_id_audiences_id_fk" FOREIGN KEY ("audience_id") REFERENCES "public"."audiences"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcasts" ADD CONSTRAINT "broadcasts_template_id_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."templates"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "broadcasts_org_idx" ON "broadcasts" USING btree ("organization_id","id");--> statement-breakpoint
CREATE INDEX "broadcasts_audience_idx" ON "broadcasts" USING btree ("audience_id") WHERE "broadcasts"."audience_id" is not null;--> statement-breakpoint
CREATE INDEX "broadcasts_due_idx" ON "broadcasts" USING btree ("next_attempt_at") WHERE "broadcasts"."next_attempt_at" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "emails_broadcast_contact_unique" ON "emails" USING btree ("broadcast_id","contact_id") WHERE "emails"."broadcast_id" is not null;