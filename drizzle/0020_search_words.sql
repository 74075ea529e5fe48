CREATE TABLE "search_terms" (
	"lexeme" text NOT NULL,
	"video_id" uuid NOT NULL,
	"source" text NOT NULL,
	"starts" real[] NOT NULL,
	CONSTRAINT "search_terms_lexeme_video_id_source_pk" PRIMARY KEY("lexeme","video_id","source")
);
--> statement-breakpoint
DROP INDEX "search_entries_fts_idx";--> statement-breakpoint
ALTER TABLE "search_entries" ADD COLUMN "words" "tsvector" GENERATED ALWAYS AS (to_tsvector('simple', text)) STORED;--> statement-breakpoint
ALTER TABLE "search_terms" ADD CONSTRAINT "search_terms_video_id_videos_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."videos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "search_terms_prefix_idx" ON "search_terms" USING btree ("lexeme" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "search_terms_video_idx" ON "search_terms" USING btree ("video_id","source");--> statement-breakpoint
CREATE INDEX "search_entries_words_idx" ON "search_entries" USING gin ("words");--> statement-breakpoint
-- search_terms is kept from search_entries by PostgreSQL itself: after each statement that writes
-- entries, the terms of every (video, source) it touched are made again from that pair's entries.
-- A lock per pair orders two writers of the same pair (the second rebuilds after the first commits).
CREATE FUNCTION search_terms_rebuild(v uuid, s text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('search_terms'), hashtext(v::text || '/' || s));
  DELETE FROM search_terms WHERE video_id = v AND source = s;
  INSERT INTO search_terms (lexeme, video_id, source, starts)
    SELECT w.lexeme, v, s, array_agg(DISTINCT e.start_seconds ORDER BY e.start_seconds)
      FROM search_entries e, unnest(e.words) w
     WHERE e.video_id = v AND e.source = s
     GROUP BY w.lexeme;
END $$;
--> statement-breakpoint
CREATE FUNCTION search_terms_refresh() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE pair record;
BEGIN
  IF TG_OP = 'DELETE' THEN
    FOR pair IN SELECT DISTINCT video_id, source FROM old_rows LOOP
      PERFORM search_terms_rebuild(pair.video_id, pair.source);
    END LOOP;
  ELSIF TG_OP = 'INSERT' THEN
    FOR pair IN SELECT DISTINCT video_id, source FROM new_rows LOOP
      PERFORM search_terms_rebuild(pair.video_id, pair.source);
    END LOOP;
  ELSE
    FOR pair IN SELECT video_id, source FROM old_rows UNION SELECT video_id, source FROM new_rows LOOP
      PERFORM search_terms_rebuild(pair.video_id, pair.source);
    END LOOP;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER search_terms_after_insert AFTER INSERT ON search_entries
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_terms_refresh();
--> statement-breakpoint
CREATE TRIGGER search_terms_after_update AFTER UPDATE ON search_entries
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_terms_refresh();
--> statement-breakpoint
CREATE TRIGGER search_terms_after_delete AFTER DELETE ON search_entries
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION search_terms_refresh();
--> statement-breakpoint
-- The terms of what is indexed already, by the same rebuild the triggers use.
SELECT search_terms_rebuild(p.video_id, p.source)
  FROM (SELECT DISTINCT video_id, source FROM search_entries) p;
