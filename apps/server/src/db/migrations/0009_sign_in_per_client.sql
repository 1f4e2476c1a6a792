-- Sign-in back-off per account and client (issue 29): a client's wrong passwords make that client wait, not the
-- owner elsewhere; `login_account_failures` holds the ceiling of an account across all clients, a count that loses
-- LOGIN_ACCOUNT_MAX_FAILURES_PER_HOUR an hour. The counts of before are dropped: they are at most a day of waits.
DELETE FROM "login_failures";--> statement-breakpoint
ALTER TABLE "login_failures" DROP CONSTRAINT "login_failures_pkey";--> statement-breakpoint
ALTER TABLE "login_failures" ADD COLUMN "client" text NOT NULL;--> statement-breakpoint
ALTER TABLE "login_failures" ADD CONSTRAINT "login_failures_email_hash_client_pk" PRIMARY KEY("email_hash","client");--> statement-breakpoint
CREATE TABLE "login_account_failures" (
	"email_hash" text PRIMARY KEY NOT NULL,
	"failures" double precision NOT NULL,
	"counted_at" timestamp with time zone NOT NULL
);
