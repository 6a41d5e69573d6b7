CREATE TABLE "ad_clicks" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ad_clicks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"platform" text NOT NULL,
	"click_id" text NOT NULL,
	"channel_code" text NOT NULL,
	"params" jsonb NOT NULL,
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"user_id" bigint,
	"attributed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "ad_clicks_platform_click" ON "ad_clicks" USING btree ("platform","click_id");--> statement-breakpoint
CREATE INDEX "ad_clicks_user" ON "ad_clicks" USING btree ("user_id","attributed_at");