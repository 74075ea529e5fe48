ALTER TABLE "users" ADD COLUMN "sign_in_failures" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "sign_in_failures_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "code_failures" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "code_failures_since" timestamp with time zone;