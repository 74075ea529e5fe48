CREATE TABLE "playback_reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"user_id" uuid NOT NULL,
	"video_id" uuid,
	"browser" text NOT NULL,
	"startup_ms" integer,
	"stalls" integer DEFAULT 0 NOT NULL,
	"stall_ms" integer DEFAULT 0 NOT NULL,
	"played_ms" integer DEFAULT 0 NOT NULL,
	"error" text
);
--> statement-breakpoint
ALTER TABLE "playback_reports" ADD CONSTRAINT "playback_reports_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "playback_reports" ADD CONSTRAINT "playback_reports_video_id_videos_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."videos"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "playback_reports_at_idx" ON "playback_reports" USING btree ("at");