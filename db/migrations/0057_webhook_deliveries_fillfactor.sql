-- A delivery's row is updated twice in its life: claimed (claimed_by, claimed_until, in no index),
-- then its outcome written. With full pages the claim's new version goes to another page and every
-- index of the table gets an entry for it; with room left on the page it is a heap-only (HOT)
-- update and no index is touched. Applies to pages filled from now on (docs/benchmarks.md).
ALTER TABLE "webhook_deliveries" SET (fillfactor = 50);
