ALTER TABLE "live_classes" ADD COLUMN "recording_job_id" uuid;--> statement-breakpoint
ALTER TABLE "live_classes" ADD COLUMN "recording_step" text;--> statement-breakpoint
ALTER TABLE "live_classes" ADD COLUMN "recording_part" integer;--> statement-breakpoint
ALTER TABLE "live_classes" ADD COLUMN "recording_parts" integer;--> statement-breakpoint
-- Classes that ended before this: their recording's job, so the staff's screen shows how it went.
UPDATE "live_classes" SET "recording_job_id" = "jobs"."id" FROM "jobs" WHERE "jobs"."type" = 'live.recording' AND "jobs"."payload"->>'classId' = "live_classes"."id"::text;
