CREATE TABLE "video_keys" (
	"video_id" uuid NOT NULL,
	"period" integer NOT NULL,
	"key" text NOT NULL,
	CONSTRAINT "video_keys_video_id_period_pk" PRIMARY KEY("video_id","period")
);
--> statement-breakpoint
ALTER TABLE "video_keys" ADD CONSTRAINT "video_keys_video_id_videos_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."videos"("id") ON DELETE cascade ON UPDATE no action;