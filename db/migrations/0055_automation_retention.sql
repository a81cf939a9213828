ALTER TABLE "automation_emails" DROP CONSTRAINT "automation_emails_run_id_automation_runs_id_fk";
--> statement-breakpoint
ALTER TABLE "automation_emails" ALTER COLUMN "run_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "automation_emails" ADD CONSTRAINT "automation_emails_run_id_automation_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."automation_runs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "automation_emails_created_idx" ON "automation_emails" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "automation_runs_finished_idx" ON "automation_runs" USING btree ("completed_at") WHERE "automation_runs"."status" <> 'running';