CREATE TABLE "email_recipients" (
	"email_id" uuid NOT NULL,
	"recipient_index" integer NOT NULL,
	"address" text NOT NULL,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"response" text,
	"provider" text NOT NULL,
	CONSTRAINT "email_recipients_email_id_recipient_index_pk" PRIMARY KEY("email_id","recipient_index")
);
--> statement-breakpoint
-- Every recipient of every email moves to its own row, in envelope order (the VERP index a later
-- bounce names), with its status, attempts and last response as they were. A deferred recipient is
-- due when its email is; the provider is the address's domain, lowercase, as the claim compares it.
-- The foreign key comes after the rows: checked once over the table, not row by row.
INSERT INTO "email_recipients" ("email_id", "recipient_index", "address", "status", "attempts", "next_attempt_at", "response", "provider")
SELECT e."id", s.ord - 1, coalesce(s.state->>'address', ''), coalesce(s.state->>'status', 'pending'),
  coalesce((s.state->>'attempts')::integer, 0),
  CASE WHEN s.state->>'status' = 'deferred' THEN e."next_attempt_at" END,
  s.state->>'response',
  coalesce(lower(substring(s.state->>'address' from '@([^@]*)$')), '')
FROM "emails" e CROSS JOIN LATERAL jsonb_array_elements(e."recipient_states") WITH ORDINALITY AS s(state, ord);--> statement-breakpoint
ALTER TABLE "email_recipients" ADD CONSTRAINT "email_recipients_email_id_emails_id_fk" FOREIGN KEY ("email_id") REFERENCES "public"."emails"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "emails" DROP COLUMN "recipient_states";