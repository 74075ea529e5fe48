-- How far a student's allowance for played ranges is spent (progress/save-progress.ts); null: from updated_at, as before.
ALTER TABLE "video_progress" ADD COLUMN "ranges_credit_at" timestamp with time zone;
