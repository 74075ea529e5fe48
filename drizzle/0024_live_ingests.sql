CREATE TABLE "live_ingests" (
	"class_id" uuid PRIMARY KEY NOT NULL,
	"holder" text,
	"lease_until" timestamp with time zone,
	"rtmp_since" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "live_ingests" ADD CONSTRAINT "live_ingests_class_id_live_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."live_classes"("id") ON DELETE cascade ON UPDATE no action;