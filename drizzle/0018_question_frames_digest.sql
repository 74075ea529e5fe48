ALTER TABLE "questions" ADD COLUMN "frame_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "questions" ADD COLUMN "digested_at" timestamp with time zone;