CREATE TABLE "backup_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"trigger" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"scheduled_for" date,
	"requested_by" uuid,
	"job_id" uuid,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer DEFAULT 1 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"backup_id" text,
	"bytes" bigint,
	"bytes_written" bigint,
	"objects_copied" integer,
	"objects_total" integer,
	"duration_ms" integer,
	"error" text,
	"phase" text,
	"progress_done" bigint,
	"progress_total" bigint,
	"progress_bytes" bigint,
	"progress_at" timestamp with time zone,
	"pruned" integer,
	"admins_mailed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "backup_runs" ADD CONSTRAINT "backup_runs_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "backup_runs_one_active" ON "backup_runs" USING btree ((true)) WHERE status in ('queued', 'running');--> statement-breakpoint
CREATE UNIQUE INDEX "backup_runs_scheduled_for_key" ON "backup_runs" USING btree ("scheduled_for");--> statement-breakpoint
CREATE INDEX "backup_runs_created_idx" ON "backup_runs" USING btree ("created_at");