CREATE TABLE "automation_emails" (
	"email_id" uuid PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"automation_id" uuid NOT NULL,
	"run_id" uuid NOT NULL,
	"step_key" text NOT NULL,
	"contact_id" uuid,
	"topic_id" uuid,
	"test" boolean NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "automation_run_steps" (
	"run_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"key" text NOT NULL,
	"type" text NOT NULL,
	"status" text NOT NULL,
	"output" jsonb,
	"error" jsonb,
	"started_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "automation_run_steps_run_id_seq_pk" PRIMARY KEY("run_id","seq")
);
--> statement-breakpoint
CREATE TABLE "automation_runs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"automation_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"contact_id" uuid,
	"contact_email" text NOT NULL,
	"test" boolean DEFAULT false NOT NULL,
	"status" text NOT NULL,
	"step_key" text NOT NULL,
	"step_state" text NOT NULL,
	"step_count" integer DEFAULT 0 NOT NULL,
	"due_at" timestamp with time zone,
	"waiting_for" text,
	"event" jsonb NOT NULL,
	"received_event" jsonb,
	"last_email_id" uuid,
	"attempts" integer DEFAULT 0 NOT NULL,
	"ended_reason" text,
	"error" text,
	"claimed_by" uuid,
	"claimed_until" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "custom_events" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"name" text NOT NULL,
	"schema" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "received_events" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"name" text NOT NULL,
	"contact_id" uuid,
	"email" text NOT NULL,
	"payload" jsonb NOT NULL,
	"test" boolean NOT NULL,
	"runs_started" integer NOT NULL,
	"waits_ended" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "automation_emails" ADD CONSTRAINT "automation_emails_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "automation_emails" ADD CONSTRAINT "automation_emails_automation_id_automations_id_fk" FOREIGN KEY ("automation_id") REFERENCES "public"."automations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "automation_emails" ADD CONSTRAINT "automation_emails_run_id_automation_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."automation_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "automation_run_steps" ADD CONSTRAINT "automation_run_steps_run_id_automation_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."automation_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "automation_runs" ADD CONSTRAINT "automation_runs_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "automation_runs" ADD CONSTRAINT "automation_runs_automation_id_automations_id_fk" FOREIGN KEY ("automation_id") REFERENCES "public"."automations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "automation_runs" ADD CONSTRAINT "automation_runs_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_events" ADD CONSTRAINT "custom_events_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "received_events" ADD CONSTRAINT "received_events_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "received_events" ADD CONSTRAINT "received_events_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "automation_emails_automation_idx" ON "automation_emails" USING btree ("automation_id","created_at");--> statement-breakpoint
CREATE INDEX "automation_runs_automation_idx" ON "automation_runs" USING btree ("automation_id","created_at","id");--> statement-breakpoint
CREATE INDEX "automation_runs_due_idx" ON "automation_runs" USING btree ("due_at") WHERE "automation_runs"."status" = 'running';--> statement-breakpoint
CREATE INDEX "automation_runs_waiting_idx" ON "automation_runs" USING btree ("contact_id","waiting_for") WHERE "automation_runs"."status" = 'running' and "automation_runs"."waiting_for" is not null;--> statement-breakpoint
CREATE INDEX "automation_runs_contact_idx" ON "automation_runs" USING btree ("automation_id","contact_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "custom_events_organization_name_unique" ON "custom_events" USING btree ("organization_id","name");--> statement-breakpoint
CREATE INDEX "received_events_org_idx" ON "received_events" USING btree ("organization_id","created_at");