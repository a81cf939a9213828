CREATE TABLE "email_attachments" (
	"id" uuid PRIMARY KEY NOT NULL,
	"email_id" uuid NOT NULL,
	"filename" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"content" "bytea",
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "email_events" (
	"id" uuid PRIMARY KEY NOT NULL,
	"email_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"type" text NOT NULL,
	"recipient" text,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "emails" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"mode" text NOT NULL,
	"domain_id" uuid,
	"api_key_id" uuid,
	"from" text NOT NULL,
	"from_address" text NOT NULL,
	"to" text[] NOT NULL,
	"cc" text[] NOT NULL,
	"bcc" text[] NOT NULL,
	"reply_to" text[] NOT NULL,
	"recipient_addresses" text[] NOT NULL,
	"subject" text NOT NULL,
	"html" text,
	"text" text,
	"headers" jsonb NOT NULL,
	"tags" jsonb NOT NULL,
	"tag_keys" text[] NOT NULL,
	"track_opens" boolean NOT NULL,
	"track_clicks" boolean NOT NULL,
	"status" text NOT NULL,
	"scheduled_at" timestamp with time zone,
	"next_attempt_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"idempotency_key" text,
	"idempotency_expires_at" timestamp with time zone,
	"message_id" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "email_attachments" ADD CONSTRAINT "email_attachments_email_id_emails_id_fk" FOREIGN KEY ("email_id") REFERENCES "public"."emails"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_events" ADD CONSTRAINT "email_events_email_id_emails_id_fk" FOREIGN KEY ("email_id") REFERENCES "public"."emails"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "emails" ADD CONSTRAINT "emails_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "email_attachments_email_idx" ON "email_attachments" USING btree ("email_id");--> statement-breakpoint
CREATE INDEX "email_events_email_idx" ON "email_events" USING btree ("email_id","id");--> statement-breakpoint
CREATE INDEX "emails_org_mode_idx" ON "emails" USING btree ("organization_id","mode","id");--> statement-breakpoint
CREATE INDEX "emails_org_status_idx" ON "emails" USING btree ("organization_id","mode","status","id");--> statement-breakpoint
CREATE INDEX "emails_org_from_idx" ON "emails" USING btree ("organization_id","mode","from_address","id");--> statement-breakpoint
CREATE INDEX "emails_recipients_gin" ON "emails" USING gin ("recipient_addresses");--> statement-breakpoint
CREATE INDEX "emails_tag_keys_gin" ON "emails" USING gin ("tag_keys");--> statement-breakpoint
CREATE INDEX "emails_due_idx" ON "emails" USING btree ("next_attempt_at") WHERE "emails"."next_attempt_at" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "emails_idempotency_unique" ON "emails" USING btree ("organization_id","mode","idempotency_key") WHERE "emails"."idempotency_key" is not null;