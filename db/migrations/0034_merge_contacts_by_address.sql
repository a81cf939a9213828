-- One contact per (organization, address) (issue 35, docs/contacts.md). Today's per-audience rows
-- are merged: the oldest survives, every row becomes a membership of the survivor keeping its own
-- subscription (and its id: unsubscribe tokens name it), and the other ids answer as aliases of
-- the survivor on every route.
-- A broadcast walking an audience by contact id while ids change would miss contacts: refused, the
-- upgrade waits until such a broadcast is sent.
DO $$
BEGIN
  IF EXISTS (
    SELECT 1 FROM "broadcasts" b
    WHERE b."status" IN ('sending', 'held') AND b."cursor" IS NOT NULL
      AND EXISTS (
        SELECT 1 FROM "contacts" c
        WHERE c."audience_id" = b."audience_id"
          AND EXISTS (SELECT 1 FROM "contacts" o WHERE o."organization_id" = c."organization_id" AND o."email" = c."email" AND (o."created_at", o."id") < (c."created_at", c."id"))
      )
  ) THEN
    RAISE EXCEPTION 'A broadcast is sending to an audience whose contacts this upgrade merges by address: upgrade once it is sent (or cancel it)';
  END IF;
END $$;
--> statement-breakpoint
CREATE TEMPORARY TABLE "contact_survivors" AS
  SELECT c."id", c."organization_id", c."audience_id",
    first_value(c."id") OVER (PARTITION BY c."organization_id", c."email" ORDER BY c."created_at", c."id") AS "survivor"
  FROM "contacts" c;
--> statement-breakpoint
-- Each row's id stays its membership's id: the unsubscribe tokens already sent name it.
INSERT INTO "audience_memberships" ("id", "audience_id", "contact_id", "organization_id", "subscribed", "created_at", "updated_at")
  SELECT c."id", c."audience_id", s."survivor", c."organization_id", c."subscribed", c."created_at", c."updated_at"
  FROM "contacts" c JOIN "contact_survivors" s ON s."id" = c."id";
--> statement-breakpoint
INSERT INTO "contact_aliases" ("id", "contact_id", "organization_id", "audience_id")
  SELECT s."id", s."survivor", s."organization_id", s."audience_id" FROM "contact_survivors" s WHERE s."id" <> s."survivor";
--> statement-breakpoint
-- The survivor keeps the most recently written name any of its rows had.
UPDATE "contacts" t SET "name" = m."name", "updated_at" = m."updated_at"
  FROM (
    SELECT s."survivor",
      (array_agg(c."name" ORDER BY c."updated_at" DESC, c."id" DESC) FILTER (WHERE c."name" IS NOT NULL))[1] AS "name",
      max(c."updated_at") AS "updated_at"
    FROM "contacts" c JOIN "contact_survivors" s ON s."id" = c."id"
    GROUP BY s."survivor" HAVING count(*) > 1
  ) m
  WHERE t."id" = m."survivor";
--> statement-breakpoint
UPDATE "emails" e SET "contact_id" = a."contact_id" FROM "contact_aliases" a WHERE e."contact_id" = a."id";
--> statement-breakpoint
DELETE FROM "contacts" c USING "contact_aliases" a WHERE a."id" = c."id";
--> statement-breakpoint
UPDATE "organizations" o SET "contact_count" = n."count"
  FROM (SELECT "organization_id", count(*)::int AS "count" FROM "contacts" GROUP BY "organization_id") n
  WHERE o."id" = n."organization_id";
--> statement-breakpoint
DROP TABLE "contact_survivors";
