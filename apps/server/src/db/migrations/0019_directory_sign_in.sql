-- Issue 42: sign-in with the administration's directory (OpenID Connect). Expand only: an account created by the
-- directory may have no password and, until an admin gives it one, no structure; the previous release reads both
-- columns and still works with the rows it writes.
ALTER TABLE "users" ALTER COLUMN "password_hash" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "structure_id" DROP NOT NULL;--> statement-breakpoint
CREATE TABLE "directory_links" (
	"user_id" integer PRIMARY KEY NOT NULL REFERENCES "users"("id") ON DELETE cascade,
	"issuer" text NOT NULL,
	"subject" text NOT NULL,
	"linked_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE UNIQUE INDEX "directory_links_identity_unique" ON "directory_links" USING btree ("issuer","subject");--> statement-breakpoint
CREATE TABLE "directory_dances" (
	"state_hash" text PRIMARY KEY NOT NULL,
	"purpose" text NOT NULL,
	"user_id" integer REFERENCES "users"("id") ON DELETE cascade,
	"nonce" text NOT NULL,
	"code_verifier" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE TABLE "directory_sessions" (
	"family_id" uuid PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL REFERENCES "users"("id") ON DELETE cascade,
	"issuer" text NOT NULL,
	"subject" text NOT NULL,
	"sid" text,
	"id_token" text NOT NULL,
	"second_factor" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE INDEX "directory_sessions_sid_idx" ON "directory_sessions" USING btree ("issuer","sid");--> statement-breakpoint
CREATE INDEX "directory_sessions_subject_idx" ON "directory_sessions" USING btree ("issuer","subject");--> statement-breakpoint
CREATE TABLE "directory_logout_tokens" (
	"jti_hash" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
