-- Auth hardening (issue 14). Rate-limit counters and sign-in failures live in the database, shared by every
-- instance and kept across restarts; sign-in failures are kept per email address (known or not), so the
-- columns that counted them on the account go.
CREATE TABLE "rate_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"hits" integer NOT NULL,
	"window_ends_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "login_failures" (
	"email_hash" text PRIMARY KEY NOT NULL,
	"failures" integer NOT NULL,
	"retry_at" timestamp with time zone,
	"forget_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "rate_limits_window_idx" ON "rate_limits" USING btree ("window_ends_at");--> statement-breakpoint
CREATE INDEX "login_failures_forget_idx" ON "login_failures" USING btree ("forget_at");--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "failed_logins";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "locked_until";--> statement-breakpoint
-- Existing temporary passwords get 72 hours from this migration.
ALTER TABLE "users" ADD COLUMN "password_changed_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
-- Whatever changes a password (reset link, first password, own change, admin reset), the temporary-password
-- clock restarts and every reset link still outstanding stops working.
CREATE FUNCTION "users_password_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."password_changed_at" := now();
  UPDATE "password_reset_tokens" SET "used_at" = now() WHERE "user_id" = NEW."id" AND "used_at" IS NULL;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER "users_password_changed" BEFORE UPDATE OF "password_hash" ON "users"
  FOR EACH ROW WHEN (OLD."password_hash" IS DISTINCT FROM NEW."password_hash")
  EXECUTE FUNCTION "users_password_changed"();
