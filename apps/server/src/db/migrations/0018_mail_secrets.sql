-- Issue 40, item 12: mails queued before `secretUntil` existed. A reset link (60 min) or a new account's temporary
-- password (72 h) already given up keeps only its address and subject, as a delivered mail does; one still waiting
-- gets the expiry of its secret, counted from when it was queued, and the worker erases it if that has passed.
UPDATE "jobs" SET "payload" = jsonb_strip_nulls(jsonb_build_object('to', "payload"->'to', 'subject', "payload"->'subject'))
WHERE "kind" = 'mail' AND "failed_at" IS NOT NULL AND NOT ("payload" ? 'secretUntil')
  AND "payload"->>'subject' IN ('Réformes : réinitialisation de votre mot de passe', 'Réformes : votre compte a été créé');--> statement-breakpoint
UPDATE "jobs" SET "payload" = "payload" || jsonb_build_object('secretUntil', to_char(("created_at" + CASE
    WHEN "payload"->>'subject' = 'Réformes : réinitialisation de votre mot de passe' THEN interval '60 minutes'
    ELSE interval '72 hours' END) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
WHERE "kind" = 'mail' AND "done_at" IS NULL AND "failed_at" IS NULL AND NOT ("payload" ? 'secretUntil')
  AND "payload"->>'subject' IN ('Réformes : réinitialisation de votre mot de passe', 'Réformes : votre compte a été créé');
