CREATE TABLE "invitations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"document_id" uuid,
	"organization_id" uuid,
	"email" text NOT NULL,
	"email_key" text NOT NULL,
	"role" text NOT NULL,
	"invited_by" uuid,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"accepted_at" timestamp with time zone,
	"accepted_by" uuid,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "invitations_one_target" CHECK (num_nonnulls("invitations"."document_id", "invitations"."organization_id") = 1)
);
--> statement-breakpoint
-- The plans' invitations so far move over whole: their links (token hashes) keep working.
INSERT INTO "invitations" ("id", "document_id", "email", "email_key", "role", "invited_by", "token_hash", "created_at", "sent_at", "expires_at", "accepted_at", "accepted_by", "revoked_at")
SELECT "id", "document_id", "email", "email_key", "role", "invited_by", "token_hash", "created_at", "sent_at", "expires_at", "accepted_at", "accepted_by", "revoked_at" FROM "document_invitations";--> statement-breakpoint
DROP TABLE "document_invitations" CASCADE;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_invited_by_users_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_accepted_by_users_id_fk" FOREIGN KEY ("accepted_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "invitations_token_idx" ON "invitations" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "invitations_pending_document_idx" ON "invitations" USING btree ("document_id","email_key") WHERE "invitations"."accepted_at" is null and "invitations"."revoked_at" is null and "invitations"."document_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "invitations_pending_organization_idx" ON "invitations" USING btree ("organization_id","email_key") WHERE "invitations"."accepted_at" is null and "invitations"."revoked_at" is null and "invitations"."organization_id" is not null;--> statement-breakpoint
CREATE INDEX "invitations_email_key_idx" ON "invitations" USING btree ("email_key");