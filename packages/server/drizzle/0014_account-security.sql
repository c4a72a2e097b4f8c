ALTER TABLE "sessions" ADD COLUMN "number" bigserial NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "name" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "scope" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "token_hint" text;--> statement-breakpoint
CREATE UNIQUE INDEX "sessions_number_idx" ON "sessions" USING btree ("number");