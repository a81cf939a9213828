-- The sliding-window log is rewritten on every API request; an unlogged table spares each of
-- those writes the WAL flush. After a crash it is empty, which at worst lets an organization
-- make one extra window of requests.
ALTER TABLE "rate_limit_buckets" SET UNLOGGED;
