-- A number that moves on every write to reformes: the server keeps the count of a text search while it has
-- not moved (reforme-pages.ts). A sequence is not transactional, so bumping it never waits on another writer.
CREATE SEQUENCE IF NOT EXISTS "reformes_version";--> statement-breakpoint
CREATE FUNCTION "reformes_version_bump"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM nextval('reformes_version');
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "reformes_version_bump" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "reformes"
  FOR EACH STATEMENT EXECUTE FUNCTION "reformes_version_bump"();
