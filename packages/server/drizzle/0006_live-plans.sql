CREATE TABLE "live_snapshots" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"document_id" uuid,
	"blueprint_id" uuid,
	"state" "bytea" NOT NULL,
	"folded_updates" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "live_snapshots_one_plan" CHECK (num_nonnulls("live_snapshots"."document_id", "live_snapshots"."blueprint_id") = 1)
);
--> statement-breakpoint
CREATE TABLE "live_updates" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"document_id" uuid,
	"blueprint_id" uuid,
	"update" "bytea" NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "live_updates_one_plan" CHECK (num_nonnulls("live_updates"."document_id", "live_updates"."blueprint_id") = 1)
);
--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "live_revision" integer;--> statement-breakpoint
ALTER TABLE "live_snapshots" ADD CONSTRAINT "live_snapshots_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_snapshots" ADD CONSTRAINT "live_snapshots_blueprint_id_blueprints_id_fk" FOREIGN KEY ("blueprint_id") REFERENCES "public"."blueprints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_updates" ADD CONSTRAINT "live_updates_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_updates" ADD CONSTRAINT "live_updates_blueprint_id_blueprints_id_fk" FOREIGN KEY ("blueprint_id") REFERENCES "public"."blueprints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "live_snapshots_document_idx" ON "live_snapshots" USING btree ("document_id");--> statement-breakpoint
CREATE UNIQUE INDEX "live_snapshots_blueprint_idx" ON "live_snapshots" USING btree ("blueprint_id");--> statement-breakpoint
CREATE INDEX "live_updates_document_idx" ON "live_updates" USING btree ("document_id","seq");--> statement-breakpoint
CREATE INDEX "live_updates_blueprint_idx" ON "live_updates" USING btree ("blueprint_id","seq");