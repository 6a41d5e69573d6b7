CREATE TABLE "web_vitals" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "web_vitals_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"metric" text NOT NULL,
	"value" double precision NOT NULL,
	"rating" text,
	"route" text NOT NULL,
	"channel_code" text,
	"skin" smallint,
	"env" text NOT NULL,
	"app_version" text NOT NULL,
	"navigation_type" text,
	"connection" text,
	"device_hash" text,
	"day" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "web_vitals_day_metric" ON "web_vitals" USING btree ("day","metric","route");