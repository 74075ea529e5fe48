-- Bumps a change stamp (see change_stamps in schema.ts) at the end of every statement that may
-- change a read model of the topic, in that statement's transaction.
CREATE OR REPLACE FUNCTION bump_change_stamp() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO change_stamps (topic, stamp) VALUES (TG_ARGV[0], 1)
  ON CONFLICT (topic) DO UPDATE SET stamp = change_stamps.stamp + 1;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER courses_rosters_stamp AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON courses
  FOR EACH STATEMENT EXECUTE FUNCTION bump_change_stamp('rosters');
--> statement-breakpoint
CREATE TRIGGER enrollments_rosters_stamp AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON enrollments
  FOR EACH STATEMENT EXECUTE FUNCTION bump_change_stamp('rosters');
--> statement-breakpoint
CREATE TRIGGER videos_rosters_stamp AFTER INSERT OR DELETE OR UPDATE OF course_id OR TRUNCATE ON videos
  FOR EACH STATEMENT EXECUTE FUNCTION bump_change_stamp('rosters');
--> statement-breakpoint
-- New students belong to no course yet; sign-ins and password changes touch no roster column.
CREATE TRIGGER users_rosters_stamp AFTER DELETE OR UPDATE OF name, email, rollno OR TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION bump_change_stamp('rosters');
