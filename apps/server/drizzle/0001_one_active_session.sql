DROP INDEX "sessions_user_active";--> statement-breakpoint
CREATE UNIQUE INDEX "sessions_one_active_per_user" ON "sessions" USING btree ("user_id") WHERE "sessions"."revoked_at" is null;