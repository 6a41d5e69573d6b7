CREATE TABLE "channel_conversions" (
	"channel_id" integer PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"platform" text NOT NULL,
	"window_days" smallint DEFAULT 7 NOT NULL,
	"events" jsonb NOT NULL,
	"credentials_enc" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "channel_conversions" ADD CONSTRAINT "channel_conversions_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "channels"("id") ON DELETE cascade ON UPDATE no action;