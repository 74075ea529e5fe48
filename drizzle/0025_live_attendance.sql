CREATE TABLE "live_attendance" (
	"class_id" uuid NOT NULL,
	"student_id" uuid NOT NULL,
	"joined_at" timestamp with time zone,
	"live_seconds" double precision DEFAULT 0 NOT NULL,
	"recording_seconds" double precision DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "live_attendance_class_id_student_id_pk" PRIMARY KEY("class_id","student_id")
);
--> statement-breakpoint
CREATE TABLE "live_class_mails" (
	"class_id" uuid NOT NULL,
	"student_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"sequence" bigint NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"minutes" integer NOT NULL,
	"with_calendar" boolean NOT NULL,
	"claimed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "live_class_mails_class_id_student_id_kind_sequence_pk" PRIMARY KEY("class_id","student_id","kind","sequence")
);
--> statement-breakpoint
ALTER TABLE "live_attendance" ADD CONSTRAINT "live_attendance_class_id_live_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."live_classes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_attendance" ADD CONSTRAINT "live_attendance_student_id_users_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_class_mails" ADD CONSTRAINT "live_class_mails_student_id_users_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "live_attendance_student_idx" ON "live_attendance" USING btree ("student_id");--> statement-breakpoint
CREATE INDEX "live_class_mails_student_idx" ON "live_class_mails" USING btree ("student_id");