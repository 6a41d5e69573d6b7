CREATE TABLE "agreement_texts" (
	"hash" text PRIMARY KEY NOT NULL,
	"agreement_code" text NOT NULL,
	"version" text NOT NULL,
	"title" text NOT NULL,
	"content" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "consents" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "consents_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"offer_id" bigint NOT NULL,
	"product_id" integer NOT NULL,
	"partner_id" integer NOT NULL,
	"agreement_code" text NOT NULL,
	"agreement_version" text NOT NULL,
	"text_hash" text NOT NULL,
	"fields" jsonb NOT NULL,
	"ip" text,
	"user_agent" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "consents_offer_id_unique" UNIQUE("offer_id")
);
--> statement-breakpoint
CREATE TABLE "lead_attempts" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "lead_attempts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"lead_id" bigint NOT NULL,
	"attempt" integer NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"duration_ms" integer NOT NULL,
	"http_status" integer,
	"outcome" text NOT NULL,
	"response" text,
	"error" text
);
--> statement-breakpoint
CREATE TABLE "leads" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "leads_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"consent_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"product_id" integer NOT NULL,
	"partner_id" integer NOT NULL,
	"idempotency_key" text NOT NULL,
	"mode" text NOT NULL,
	"payload_enc" text NOT NULL,
	"auto_form" boolean DEFAULT false NOT NULL,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"last_error" text,
	"partner_ref" text,
	"callback" jsonb,
	"delivered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "leads_consent_id_unique" UNIQUE("consent_id"),
	CONSTRAINT "leads_idempotency_key_unique" UNIQUE("idempotency_key")
);
--> statement-breakpoint
CREATE TABLE "match_offers" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "match_offers_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"run_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"product_id" integer NOT NULL,
	"partner_id" integer NOT NULL,
	"rank" smallint NOT NULL,
	"matched" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"cap_day" date NOT NULL,
	"status" text DEFAULT 'offered' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "match_runs" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "match_runs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"ad_channel_code" text,
	"match_type" smallint NOT NULL,
	"direct_match_type" smallint,
	"source" text NOT NULL,
	"profile_enc" text NOT NULL,
	"apply_status" smallint,
	"excluded" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "product_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "product_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint,
	"product_id" integer NOT NULL,
	"kind" text NOT NULL,
	"entrance_type" smallint,
	"app_h5" smallint,
	"day" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_partner_leads" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "sandbox_partner_leads_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"partner_code" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"phone_hash" text NOT NULL,
	"body" jsonb NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "partners" ADD COLUMN "dup_check_endpoint" text;--> statement-breakpoint
ALTER TABLE "consents" ADD CONSTRAINT "consents_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consents" ADD CONSTRAINT "consents_offer_id_match_offers_id_fk" FOREIGN KEY ("offer_id") REFERENCES "match_offers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consents" ADD CONSTRAINT "consents_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consents" ADD CONSTRAINT "consents_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "partners"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consents" ADD CONSTRAINT "consents_text_hash_agreement_texts_hash_fk" FOREIGN KEY ("text_hash") REFERENCES "agreement_texts"("hash") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_attempts" ADD CONSTRAINT "lead_attempts_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "leads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_consent_id_consents_id_fk" FOREIGN KEY ("consent_id") REFERENCES "consents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "partners"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "match_offers" ADD CONSTRAINT "match_offers_run_id_match_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "match_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "match_offers" ADD CONSTRAINT "match_offers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "match_offers" ADD CONSTRAINT "match_offers_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "match_offers" ADD CONSTRAINT "match_offers_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "partners"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "match_runs" ADD CONSTRAINT "match_runs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_events" ADD CONSTRAINT "product_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_events" ADD CONSTRAINT "product_events_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "consents_user" ON "consents" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "lead_attempts_lead" ON "lead_attempts" USING btree ("lead_id");--> statement-breakpoint
CREATE INDEX "leads_due" ON "leads" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "leads_user" ON "leads" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "match_offers_user_status" ON "match_offers" USING btree ("user_id","status");--> statement-breakpoint
CREATE INDEX "match_offers_run" ON "match_offers" USING btree ("run_id");--> statement-breakpoint
CREATE INDEX "match_runs_user" ON "match_runs" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "product_events_user_day" ON "product_events" USING btree ("user_id","day");--> statement-breakpoint
CREATE INDEX "product_events_product_day" ON "product_events" USING btree ("product_id","kind","day");--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_partner_leads_key" ON "sandbox_partner_leads" USING btree ("partner_code","idempotency_key");--> statement-breakpoint
CREATE INDEX "sandbox_partner_leads_phone" ON "sandbox_partner_leads" USING btree ("partner_code","phone_hash");