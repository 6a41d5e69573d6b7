CREATE TABLE "route_code_misses" (
	"route_code" text PRIMARY KEY NOT NULL,
	"hits" integer DEFAULT 0 NOT NULL,
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- Issue 44.14: until now only the second match's authorisation page (/seconed-match-authorize) reported
-- re_authorization, without any retention popup. Those reports are what they were: second_match_authorization.
-- A re-authorisation is one after the popup (its session also reported retention_popup); those stay.
UPDATE "events" SET "step" = 'second_match_authorization'
WHERE "step" = 're_authorization'
  AND NOT EXISTS (
    SELECT 1 FROM "events" AS "popup"
    WHERE "popup"."session_id" = "events"."session_id" AND "popup"."step" = 'retention_popup'
  );
