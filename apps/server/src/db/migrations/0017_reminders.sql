-- Reminders by mail (issue 32): who turned a digest off, each digest sent (one per user, digest and week, whichever
-- instance writes it first), and each run for the screen « Rappels ».
CREATE TABLE "reminder_opt_outs" (
	"user_id" integer NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"digest" text NOT NULL CHECK ("digest" IN ('structure', 'portfolio')),
	PRIMARY KEY ("user_id", "digest")
);--> statement-breakpoint
CREATE TABLE "reminder_runs" (
	"id" serial PRIMARY KEY NOT NULL,
	"trigger" text NOT NULL CHECK ("trigger" IN ('schedule', 'manual')),
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"mails" integer DEFAULT 0 NOT NULL,
	"errors" integer DEFAULT 0 NOT NULL
);--> statement-breakpoint
CREATE TABLE "reminder_deliveries" (
	"user_id" integer NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"digest" text NOT NULL,
	-- The Monday (UTC) of the week it was sent in.
	"week" date NOT NULL,
	"run_id" integer NOT NULL REFERENCES "reminder_runs"("id") ON DELETE CASCADE,
	"job_id" bigint NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	PRIMARY KEY ("user_id", "digest", "week")
);--> statement-breakpoint
CREATE INDEX "reminder_deliveries_run_idx" ON "reminder_deliveries" ("run_id");--> statement-breakpoint
-- On an existing database, the screen's entry after « Courriels et tâches », for the roles that have that one.
INSERT INTO "menus" ("parent_id", "name", "route", "title", "position")
  SELECT "parent_id", 'Rappels', '/admin/reminders', false, "position" + 1 FROM "menus"
  WHERE "route" = '/admin/jobs' AND NOT EXISTS (SELECT 1 FROM "menus" WHERE "route" = '/admin/reminders');--> statement-breakpoint
INSERT INTO "role_windows" ("role_id", "menu_id", "position")
  SELECT "role_windows"."role_id", "entry"."id", "role_windows"."position"
  FROM "role_windows" JOIN "menus" AS "jobs" ON "jobs"."id" = "role_windows"."menu_id", "menus" AS "entry"
  WHERE "jobs"."route" = '/admin/jobs' AND "entry"."route" = '/admin/reminders'
  ON CONFLICT DO NOTHING;
