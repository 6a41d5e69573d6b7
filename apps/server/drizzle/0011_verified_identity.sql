ALTER TABLE "credit_profiles" ADD COLUMN "verified_identity_enc" text;--> statement-breakpoint
ALTER TABLE "credit_profiles" ADD COLUMN "identity_verified_at" timestamp with time zone;