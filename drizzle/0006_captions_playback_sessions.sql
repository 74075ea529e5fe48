CREATE TABLE "playback_sessions" (
	"code" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"video_id" uuid,
	"course_id" uuid,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ip" text NOT NULL,
	"user_agent" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "video_captions" (
	"video_id" uuid NOT NULL,
	"language" text NOT NULL,
	"label" text NOT NULL,
	"vtt" text NOT NULL,
	"cue_count" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "video_captions_video_id_language_pk" PRIMARY KEY("video_id","language")
);
--> statement-breakpoint
ALTER TABLE "playback_sessions" ADD CONSTRAINT "playback_sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "playback_sessions" ADD CONSTRAINT "playback_sessions_video_id_videos_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."videos"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "playback_sessions" ADD CONSTRAINT "playback_sessions_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "video_captions" ADD CONSTRAINT "video_captions_video_id_videos_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."videos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "playback_sessions_user_idx" ON "playback_sessions" USING btree ("user_id","started_at");--> statement-breakpoint
CREATE INDEX "playback_sessions_started_idx" ON "playback_sessions" USING btree ("started_at");