CREATE TABLE "partners" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "partners_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"code" text NOT NULL,
	"legal_name" text NOT NULL,
	"licence_number" text NOT NULL,
	"contact_name" text NOT NULL,
	"contact_phone_enc" text NOT NULL,
	"contact_phone_masked" text NOT NULL,
	"api_endpoint" text,
	"signing_secret_enc" text,
	"allowed_hosts" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"delivery_modes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "partners_code_unique" UNIQUE("code")
);
--> statement-breakpoint
CREATE TABLE "product_counters" (
	"product_id" integer NOT NULL,
	"day" date NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "product_counters_product_id_day_pk" PRIMARY KEY("product_id","day")
);
--> statement-breakpoint
CREATE TABLE "product_totals" (
	"product_id" integer PRIMARY KEY NOT NULL,
	"count" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "products" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "products_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"code" text NOT NULL,
	"partner_id" integer NOT NULL,
	"product_name" text NOT NULL,
	"company_type" text NOT NULL,
	"institution_type" smallint NOT NULL,
	"thirdparty_type" smallint DEFAULT 0 NOT NULL,
	"partner_product_name" text,
	"link_type" smallint NOT NULL,
	"amount_min_fen" bigint NOT NULL,
	"amount_max_fen" bigint NOT NULL,
	"term_min_months" smallint NOT NULL,
	"term_max_months" smallint NOT NULL,
	"apr_bps" integer,
	"target_url" text,
	"rules" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"daily_cap" integer,
	"total_cap" integer,
	"priority" integer DEFAULT 0 NOT NULL,
	"price_fen" integer DEFAULT 0 NOT NULL,
	"active_hours" jsonb,
	"status" text DEFAULT 'draft' NOT NULL,
	"shared_fields" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "products_code_unique" UNIQUE("code"),
	CONSTRAINT "products_institution_type" CHECK ("products"."institution_type" between 1 and 4),
	CONSTRAINT "products_link_type" CHECK ("products"."link_type" between 1 and 9)
);
--> statement-breakpoint
ALTER TABLE "product_counters" ADD CONSTRAINT "product_counters_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_totals" ADD CONSTRAINT "product_totals_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "partners"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "product_counters_day" ON "product_counters" USING btree ("day");--> statement-breakpoint
CREATE INDEX "products_partner" ON "products" USING btree ("partner_id");--> statement-breakpoint
CREATE INDEX "products_status" ON "products" USING btree ("status");