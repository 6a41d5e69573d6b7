CREATE TABLE "operators" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "operators_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"code" text NOT NULL,
	"company_name" text NOT NULL,
	"short_name" text NOT NULL,
	"filing_number" text NOT NULL,
	"sms_signature" text NOT NULL,
	"address" text NOT NULL,
	"service_phone" text NOT NULL,
	"email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "operators_code_unique" UNIQUE("code")
);
--> statement-breakpoint
ALTER TABLE "channels" ADD COLUMN "operator_id" integer;--> statement-breakpoint
ALTER TABLE "channels" ADD CONSTRAINT "channels_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "operators"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
-- The footers' company lists are kept in the audit log before the column goes (ADR 057): each channel now
-- names the operator its agreements and SMS already named (the configured one) until an operator record is
-- picked for it in the console.
INSERT INTO "audit_log" ("staff_name", "action", "entity", "entity_id", "before", "after", "reason")
SELECT '系统迁移', 'update', 'channel', "id"::text,
  jsonb_build_object('adChannelCode', "ad_channel_code", 'footer', "footer"),
  jsonb_build_object('adChannelCode', "ad_channel_code", 'operatorCode', null),
  '页脚改由运营主体提供（ADR 057）：原页脚公司记录于此；如需展示其他公司，请新建运营主体并在渠道中选择'
FROM "channels" WHERE "footer" <> '[]'::jsonb;--> statement-breakpoint
ALTER TABLE "channels" DROP COLUMN "footer";