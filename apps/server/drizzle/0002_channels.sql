CREATE TABLE "channel_clicks" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "channel_clicks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"ad_channel_code" text NOT NULL,
	"fingerprint_hash" text,
	"day" date NOT NULL,
	"ab_test_type" smallint,
	"flagged" boolean DEFAULT false NOT NULL,
	"ip" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "device_reports" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "device_reports_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint,
	"ad_channel_code" text,
	"province_name" text NOT NULL,
	"city_name" text NOT NULL,
	"ip" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"session_id" text NOT NULL,
	"step" text NOT NULL,
	"ad_channel_code" text,
	"skin" smallint,
	"fingerprint_hash" text,
	"behavior_code" text,
	"source" text DEFAULT 'H5' NOT NULL,
	"user_id" bigint,
	"day" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "route_codes" (
	"route_code" text PRIMARY KEY NOT NULL,
	"ad_channel_code" text NOT NULL,
	"plan_target_url" text,
	"status" smallint DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "channels" ADD COLUMN "exclude_city_codes" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "channels" ADD COLUMN "plan_target_url" text;--> statement-breakpoint
ALTER TABLE "channels" ADD COLUMN "page_title" text;--> statement-breakpoint
ALTER TABLE "channels" ADD COLUMN "page_icon" text;--> statement-breakpoint
ALTER TABLE "channels" ADD COLUMN "needs_location" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "channels" ADD COLUMN "track_report" jsonb;--> statement-breakpoint
ALTER TABLE "channels" ADD COLUMN "allowed_hosts" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "channels" ADD COLUMN "footer" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "channels" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "route_codes" ADD CONSTRAINT "route_codes_ad_channel_code_channels_ad_channel_code_fk" FOREIGN KEY ("ad_channel_code") REFERENCES "channels"("ad_channel_code") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
CREATE UNIQUE INDEX "channel_clicks_once_a_day" ON "channel_clicks" USING btree ("ad_channel_code","fingerprint_hash","day") WHERE "channel_clicks"."fingerprint_hash" is not null;--> statement-breakpoint
CREATE INDEX "channel_clicks_day" ON "channel_clicks" USING btree ("day","ad_channel_code");--> statement-breakpoint
CREATE UNIQUE INDEX "events_once_per_session" ON "events" USING btree ("session_id","step");--> statement-breakpoint
CREATE INDEX "events_day" ON "events" USING btree ("day","ad_channel_code","step");