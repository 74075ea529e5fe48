CREATE TABLE "trace_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"file_name" text NOT NULL,
	"size_bytes" bigint NOT NULL,
	"store" text DEFAULT 'local' NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"progress" real DEFAULT 0 NOT NULL,
	"phase" text,
	"video_id" uuid,
	"job_id" uuid,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"result" jsonb,
	"error" text
);
--> statement-breakpoint
ALTER TABLE "trace_runs" ADD CONSTRAINT "trace_runs_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trace_runs" ADD CONSTRAINT "trace_runs_video_id_videos_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."videos"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "trace_runs_created_idx" ON "trace_runs" USING btree ("created_at");