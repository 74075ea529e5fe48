CREATE TABLE "course_watch_stats" (
	"course_id" uuid NOT NULL,
	"student_id" uuid NOT NULL,
	"videos_started" integer DEFAULT 0 NOT NULL,
	"videos_completed" integer DEFAULT 0 NOT NULL,
	"watched_seconds" double precision DEFAULT 0 NOT NULL,
	"played_seconds" double precision DEFAULT 0 NOT NULL,
	"last_activity_at" timestamp with time zone,
	CONSTRAINT "course_watch_stats_course_id_student_id_pk" PRIMARY KEY("course_id","student_id")
);
--> statement-breakpoint
CREATE TABLE "video_watch_buckets" (
	"video_id" uuid NOT NULL,
	"bucket" integer NOT NULL,
	"viewers" integer DEFAULT 0 NOT NULL,
	"played_ms" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "video_watch_buckets_video_id_bucket_pk" PRIMARY KEY("video_id","bucket")
);
--> statement-breakpoint
CREATE TABLE "watch_days" (
	"student_id" uuid NOT NULL,
	"day" date NOT NULL,
	"video_id" uuid NOT NULL,
	"seconds" double precision DEFAULT 0 NOT NULL,
	CONSTRAINT "watch_days_student_id_day_video_id_pk" PRIMARY KEY("student_id","day","video_id")
);
--> statement-breakpoint
ALTER TABLE "video_progress" ADD COLUMN "claimed_seconds" real DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "video_progress" ADD COLUMN "watched_cells" "bytea";--> statement-breakpoint
ALTER TABLE "video_progress" ADD COLUMN "played_seconds" double precision DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "video_progress" ADD COLUMN "revision" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "course_watch_stats" ADD CONSTRAINT "course_watch_stats_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "course_watch_stats" ADD CONSTRAINT "course_watch_stats_student_id_users_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "video_watch_buckets" ADD CONSTRAINT "video_watch_buckets_video_id_videos_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."videos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watch_days" ADD CONSTRAINT "watch_days_student_id_users_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watch_days" ADD CONSTRAINT "watch_days_video_id_videos_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."videos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "course_watch_stats_student_idx" ON "course_watch_stats" USING btree ("student_id");--> statement-breakpoint
CREATE INDEX "watch_days_video_idx" ON "watch_days" USING btree ("video_id");--> statement-breakpoint
CREATE INDEX "video_progress_video_idx" ON "video_progress" USING btree ("video_id");--> statement-breakpoint
-- Progress saved before ranges existed: an old client's total is its claim, and what was played.
UPDATE "video_progress" SET "claimed_seconds" = "watched_seconds", "played_seconds" = "watched_seconds";--> statement-breakpoint
INSERT INTO "course_watch_stats" ("course_id", "student_id", "videos_started", "videos_completed", "watched_seconds", "played_seconds", "last_activity_at")
SELECT v."course_id", p."student_id", count(*), count(p."completed_at"), sum(p."watched_seconds"), sum(p."played_seconds"), max(p."updated_at")
FROM "video_progress" p JOIN "videos" v ON v."id" = p."video_id"
WHERE v."course_id" IS NOT NULL
GROUP BY v."course_id", p."student_id";
