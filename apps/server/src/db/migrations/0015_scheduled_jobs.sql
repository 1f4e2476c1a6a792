-- Scheduled jobs (issue 31): the purge of unclaimed uploads, the audit retention and the optional daily backup are
-- queued by every instance for each period ("slot") and done once: a second row of the same kind and slot is refused.
CREATE UNIQUE INDEX "jobs_slot_unique" ON "jobs" USING btree ("kind",("payload"->>'slot')) WHERE ("payload"->>'slot') IS NOT NULL;
