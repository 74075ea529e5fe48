CREATE TABLE "change_stamps" (
	"topic" text PRIMARY KEY NOT NULL,
	"stamp" bigint DEFAULT 0 NOT NULL
);
