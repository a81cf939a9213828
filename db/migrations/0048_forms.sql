CREATE TABLE "form_consent_texts" (
	"form_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"text" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "form_consent_texts_form_id_version_pk" PRIMARY KEY("form_id","version")
);
--> statement-breakpoint
CREATE TABLE "form_submissions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"form_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"contact_id" uuid,
	"email" text NOT NULL,
	"form_version" integer NOT NULL,
	"status" text NOT NULL,
	"values" jsonb NOT NULL,
	"client_address" text,
	"user_agent" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "forms" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"public_key" text NOT NULL,
	"name" text NOT NULL,
	"audience_id" uuid,
	"topic_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"ask_first_name" boolean DEFAULT false NOT NULL,
	"ask_last_name" boolean DEFAULT false NOT NULL,
	"property_keys" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"consent_version" integer NOT NULL,
	"double_opt_in" boolean DEFAULT false NOT NULL,
	"domain_id" uuid,
	"success_url" text,
	"error_url" text,
	"allowed_origins" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "form_consent_texts" ADD CONSTRAINT "form_consent_texts_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_submissions" ADD CONSTRAINT "form_submissions_form_id_forms_id_fk" FOREIGN KEY ("form_id") REFERENCES "public"."forms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_submissions" ADD CONSTRAINT "form_submissions_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forms" ADD CONSTRAINT "forms_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forms" ADD CONSTRAINT "forms_audience_id_audiences_id_fk" FOREIGN KEY ("audience_id") REFERENCES "public"."audiences"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forms" ADD CONSTRAINT "forms_domain_id_domains_id_fk" FOREIGN KEY ("domain_id") REFERENCES "public"."domains"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "form_submissions_form_idx" ON "form_submissions" USING btree ("form_id","id");--> statement-breakpoint
CREATE INDEX "form_submissions_org_email_idx" ON "form_submissions" USING btree ("organization_id","email");--> statement-breakpoint
CREATE UNIQUE INDEX "forms_public_key_unique" ON "forms" USING btree ("public_key");--> statement-breakpoint
CREATE INDEX "forms_org_idx" ON "forms" USING btree ("organization_id","id");