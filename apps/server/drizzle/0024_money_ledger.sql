CREATE TABLE "channel_costs" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "channel_costs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"channel_id" integer NOT NULL,
	"model" text NOT NULL,
	"amount_fen" bigint,
	"bps" integer,
	"effective_from" timestamp with time zone NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "channel_costs_value" CHECK (("channel_costs"."model" = 'rev_share' and "channel_costs"."bps" between 1 and 10000 and "channel_costs"."amount_fen" is null) or ("channel_costs"."model" in ('cpc', 'cpa_register', 'cpa_lead') and "channel_costs"."amount_fen" between 0 and 100000000 and "channel_costs"."bps" is null) or ("channel_costs"."model" = 'spend' and "channel_costs"."amount_fen" is null and "channel_costs"."bps" is null))
);
--> statement-breakpoint
CREATE TABLE "lead_returns" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "lead_returns_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"lead_id" bigint NOT NULL,
	"partner_id" integer NOT NULL,
	"transaction_id" text NOT NULL,
	"reason" text NOT NULL,
	"reason_text" text,
	"status" text NOT NULL,
	"dispute_reason" text,
	"reviewed_by" integer,
	"reviewed_at" timestamp with time zone,
	"review_note" text,
	"requested_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lead_returns_lead_id_unique" UNIQUE("lead_id")
);
--> statement-breakpoint
CREATE TABLE "ledger_entries" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ledger_entries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"party_type" text NOT NULL,
	"party_id" integer NOT NULL,
	"party_code" text NOT NULL,
	"month" text NOT NULL,
	"event_month" text NOT NULL,
	"event_at" timestamp with time zone NOT NULL,
	"amount_fen" bigint NOT NULL,
	"reference" text NOT NULL,
	"model" text,
	"price_id" integer,
	"basis_fen" bigint,
	"quantity" integer,
	"lead_id" bigint,
	"product_id" integer,
	"channel_code" text,
	"reason" text,
	"staff_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_entries_month" CHECK ("ledger_entries"."month" ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
	CONSTRAINT "ledger_entries_event_month" CHECK ("ledger_entries"."event_month" ~ '^[0-9]{4}-(0[1-9]|1[0-2])$' and "ledger_entries"."event_month" <= "ledger_entries"."month")
);
--> statement-breakpoint
CREATE TABLE "month_closes" (
	"month" text PRIMARY KEY NOT NULL,
	"closed_by" integer,
	"closed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "spend_imports" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "spend_imports_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"file_hash" text NOT NULL,
	"file_name" text NOT NULL,
	"rows_total" integer NOT NULL,
	"rows_imported" integer NOT NULL,
	"rows_rejected" integer NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "spend_imports_file_hash_unique" UNIQUE("file_hash")
);
--> statement-breakpoint
CREATE TABLE "spend_rows" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "spend_rows_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"import_id" integer NOT NULL,
	"line" integer NOT NULL,
	"day" date NOT NULL,
	"channel_id" integer NOT NULL,
	"channel_code" text NOT NULL,
	"amount_fen" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "partners" ADD COLUMN "return_window_days" smallint DEFAULT 7 NOT NULL;--> statement-breakpoint
ALTER TABLE "partners" ADD COLUMN "max_return_rate_bps" integer DEFAULT 2000 NOT NULL;--> statement-breakpoint
ALTER TABLE "channel_costs" ADD CONSTRAINT "channel_costs_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_costs" ADD CONSTRAINT "channel_costs_created_by_staff_id_fk" FOREIGN KEY ("created_by") REFERENCES "staff"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_returns" ADD CONSTRAINT "lead_returns_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "partners"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_returns" ADD CONSTRAINT "lead_returns_reviewed_by_staff_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "staff"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "month_closes" ADD CONSTRAINT "month_closes_closed_by_staff_id_fk" FOREIGN KEY ("closed_by") REFERENCES "staff"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "spend_imports" ADD CONSTRAINT "spend_imports_created_by_staff_id_fk" FOREIGN KEY ("created_by") REFERENCES "staff"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "spend_rows" ADD CONSTRAINT "spend_rows_import_id_spend_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "spend_imports"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "channel_costs_channel_from" ON "channel_costs" USING btree ("channel_id","effective_from");--> statement-breakpoint
CREATE UNIQUE INDEX "lead_returns_partner_txn" ON "lead_returns" USING btree ("partner_id","transaction_id");--> statement-breakpoint
CREATE INDEX "lead_returns_partner_requested" ON "lead_returns" USING btree ("partner_id","requested_at");--> statement-breakpoint
CREATE INDEX "lead_returns_status" ON "lead_returns" USING btree ("status");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_entries_kind_reference" ON "ledger_entries" USING btree ("kind","reference");--> statement-breakpoint
CREATE INDEX "ledger_entries_month_party" ON "ledger_entries" USING btree ("month","party_type","party_id");--> statement-breakpoint
CREATE INDEX "ledger_entries_lead" ON "ledger_entries" USING btree ("lead_id");--> statement-breakpoint
CREATE INDEX "ledger_entries_event" ON "ledger_entries" USING btree ("event_at");--> statement-breakpoint
CREATE INDEX "spend_rows_day_channel" ON "spend_rows" USING btree ("day","channel_id");--> statement-breakpoint
CREATE FUNCTION "ledger_entries_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'ledger_entries is append-only: % refused; post a correcting entry instead', TG_OP
    USING ERRCODE = 'restrict_violation';
END
$$;
--> statement-breakpoint
CREATE TRIGGER "ledger_entries_append_only" BEFORE UPDATE OR DELETE ON "ledger_entries"
  FOR EACH ROW EXECUTE FUNCTION "ledger_entries_append_only"();
