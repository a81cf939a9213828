CREATE TABLE "contact_import_chunks" (
	"import_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"text" text NOT NULL,
	"records" integer NOT NULL,
	"first_line" integer NOT NULL,
	CONSTRAINT "contact_import_chunks_import_id_seq_pk" PRIMARY KEY("import_id","seq")
);
--> statement-breakpoint
CREATE TABLE "contact_imports" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"status" text NOT NULL,
	"file_name" text,
	"file_bytes" integer DEFAULT 0 NOT NULL,
	"delimiter" text DEFAULT ',' NOT NULL,
	"has_header" boolean DEFAULT true NOT NULL,
	"column_count" integer DEFAULT 0 NOT NULL,
	"columns" jsonb,
	"segment_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"topics" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"on_conflict" text DEFAULT 'skip' NOT NULL,
	"requested_by" jsonb NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"created" integer DEFAULT 0 NOT NULL,
	"updated" integer DEFAULT 0 NOT NULL,
	"skipped" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"failure" jsonb,
	"next_chunk" integer DEFAULT 0 NOT NULL,
	"next_record" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"started_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"claimed_by" uuid,
	"claimed_until" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "contact_import_chunks" ADD CONSTRAINT "contact_import_chunks_import_id_contact_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."contact_imports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_imports" ADD CONSTRAINT "contact_imports_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contact_imports_org_idx" ON "contact_imports" USING btree ("organization_id","id");--> statement-breakpoint
CREATE INDEX "contact_imports_pending_idx" ON "contact_imports" USING btree ("created_at") WHERE "contact_imports"."status" in ('receiving', 'queued', 'in_progress');