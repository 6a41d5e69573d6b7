CREATE TABLE "lead_outcomes" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "lead_outcomes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"lead_id" bigint NOT NULL,
	"partner_id" integer NOT NULL,
	"transaction_id" text NOT NULL,
	"status" text NOT NULL,
	"limit_fen" bigint,
	"rate_bps" integer,
	"reason" text,
	"amount_fen" bigint,
	"term_months" integer,
	"applied" boolean NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "outcome" text;--> statement-breakpoint
ALTER TABLE "lead_outcomes" ADD CONSTRAINT "lead_outcomes_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "leads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_outcomes" ADD CONSTRAINT "lead_outcomes_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "partners"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "lead_outcomes_partner_txn" ON "lead_outcomes" USING btree ("partner_id","transaction_id");--> statement-breakpoint
CREATE INDEX "lead_outcomes_lead" ON "lead_outcomes" USING btree ("lead_id");