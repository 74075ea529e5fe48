ALTER TABLE "jobs" ADD COLUMN "deferrals" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "store" text DEFAULT 'local' NOT NULL;--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "multipart_id" text;--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "parts" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "pieces" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "lease_owner" text;--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "lease_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "store" text DEFAULT 'local' NOT NULL;