CREATE TABLE "certificates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"serial" text NOT NULL,
	"student_id" uuid NOT NULL,
	"course_id" uuid NOT NULL,
	"name" text NOT NULL,
	"rollno" text NOT NULL,
	"course_name" text NOT NULL,
	"batch" integer NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	"status_list_id" integer NOT NULL,
	"status_index" integer NOT NULL,
	"credential" jsonb NOT NULL,
	"revoked_at" timestamp with time zone,
	"revoked_reason" text,
	"revoked_by" uuid,
	CONSTRAINT "certificates_serial_unique" UNIQUE("serial")
);
--> statement-breakpoint
CREATE TABLE "credential_status_lists" (
	"id" integer PRIMARY KEY NOT NULL,
	"issuer_did" text NOT NULL,
	"size" integer NOT NULL,
	"next_index" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "issuer_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"did" text NOT NULL,
	"public_key_multibase" text NOT NULL,
	"sealed_secret" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"retired_at" timestamp with time zone,
	CONSTRAINT "issuer_keys_did_unique" UNIQUE("did")
);
--> statement-breakpoint
ALTER TABLE "certificates" ADD CONSTRAINT "certificates_student_id_users_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificates" ADD CONSTRAINT "certificates_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificates" ADD CONSTRAINT "certificates_status_list_id_credential_status_lists_id_fk" FOREIGN KEY ("status_list_id") REFERENCES "public"."credential_status_lists"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificates" ADD CONSTRAINT "certificates_revoked_by_users_id_fk" FOREIGN KEY ("revoked_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "certificates_valid_key" ON "certificates" USING btree ("student_id","course_id") WHERE "certificates"."revoked_at" IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "certificates_status_key" ON "certificates" USING btree ("status_list_id","status_index");--> statement-breakpoint
CREATE INDEX "certificates_course_idx" ON "certificates" USING btree ("course_id");