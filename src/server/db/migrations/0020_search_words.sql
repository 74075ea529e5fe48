DROP INDEX "search_entries_fts_idx";--> statement-breakpoint
ALTER TABLE "search_entries" ADD COLUMN "words" "tsvector" GENERATED ALWAYS AS (to_tsvector('simple', text)) STORED;--> statement-breakpoint
CREATE INDEX "search_entries_words_idx" ON "search_entries" USING gin ("words");