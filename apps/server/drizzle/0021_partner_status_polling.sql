ALTER TABLE "partners" ADD COLUMN "status_query_endpoint" text;--> statement-breakpoint
ALTER TABLE "partners" ADD COLUMN "poll_enabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "partners" ADD COLUMN "poll_interval_minutes" integer DEFAULT 60 NOT NULL;--> statement-breakpoint
ALTER TABLE "partners" ADD COLUMN "poll_next_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "partners" ADD COLUMN "poll_last_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "partners" ADD COLUMN "poll_last_error" text;--> statement-breakpoint
ALTER TABLE "sandbox_partner_leads" ADD COLUMN "outcome" jsonb;