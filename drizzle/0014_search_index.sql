CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "search_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"video_id" uuid NOT NULL,
	"source" text NOT NULL,
	"language" text DEFAULT '' NOT NULL,
	"start_seconds" real NOT NULL,
	"end_seconds" real NOT NULL,
	"text" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "search_index_state" (
	"video_id" uuid NOT NULL,
	"source" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"progress" real DEFAULT 0 NOT NULL,
	"done_seconds" real DEFAULT 0 NOT NULL,
	"error" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "search_index_state_video_id_source_pk" PRIMARY KEY("video_id","source")
);
--> statement-breakpoint
ALTER TABLE "search_entries" ADD CONSTRAINT "search_entries_video_id_videos_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."videos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "search_index_state" ADD CONSTRAINT "search_index_state_video_id_videos_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."videos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "search_entries_video_idx" ON "search_entries" USING btree ("video_id","source","start_seconds");--> statement-breakpoint
CREATE INDEX "search_entries_fts_idx" ON "search_entries" USING gin (to_tsvector('simple', "text"));--> statement-breakpoint
CREATE INDEX "search_entries_trgm_idx" ON "search_entries" USING gin (lower("text") gin_trgm_ops);