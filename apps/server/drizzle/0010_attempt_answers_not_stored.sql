ALTER TABLE "lead_attempts" DROP COLUMN "response";--> statement-breakpoint
ALTER TABLE "partner_notice_attempts" DROP COLUMN "response";