CREATE TABLE "activities" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"actor_id" uuid,
	"actor_label" text NOT NULL,
	"verb" text NOT NULL,
	"message" text NOT NULL,
	"target" text NOT NULL,
	"object_id" uuid NOT NULL,
	"target_label" text NOT NULL,
	"child_target_label" text,
	"child_content_type_label" text,
	"severity" text DEFAULT 'info' NOT NULL,
	"level" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "app_settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "blueprint_allowed_orgs" (
	"blueprint_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	CONSTRAINT "blueprint_allowed_orgs_blueprint_id_organization_id_pk" PRIMARY KEY("blueprint_id","organization_id")
);
--> statement-breakpoint
CREATE TABLE "blueprint_sections" (
	"blueprint_id" uuid NOT NULL,
	"uuid" uuid NOT NULL,
	"blueprint_uuid" uuid,
	"title" text DEFAULT '' NOT NULL,
	"position" integer NOT NULL,
	"developer_prompt" text DEFAULT '' NOT NULL,
	"user_hint" text DEFAULT '' NOT NULL,
	"tool_mode" text DEFAULT '' NOT NULL,
	"mcp_url" text DEFAULT '' NOT NULL,
	CONSTRAINT "blueprint_sections_blueprint_id_uuid_pk" PRIMARY KEY("blueprint_id","uuid")
);
--> statement-breakpoint
CREATE TABLE "blueprint_subsections" (
	"blueprint_id" uuid NOT NULL,
	"section_uuid" uuid NOT NULL,
	"uuid" uuid NOT NULL,
	"blueprint_uuid" uuid,
	"title" text DEFAULT '' NOT NULL,
	"position" integer NOT NULL,
	"developer_prompt" text DEFAULT '' NOT NULL,
	"user_hint" text DEFAULT '' NOT NULL,
	"tool_mode" text DEFAULT '' NOT NULL,
	"mcp_url" text DEFAULT '' NOT NULL,
	CONSTRAINT "blueprint_subsections_blueprint_id_uuid_pk" PRIMARY KEY("blueprint_id","uuid")
);
--> statement-breakpoint
CREATE TABLE "blueprints" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"visibility" text DEFAULT 'private' NOT NULL,
	"published_at" timestamp with time zone,
	"system_prompt" text DEFAULT '' NOT NULL,
	"publisher" text,
	"is_default" boolean DEFAULT false NOT NULL,
	"content" jsonb NOT NULL,
	"revision" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "document_sections" (
	"document_id" uuid NOT NULL,
	"uuid" uuid NOT NULL,
	"blueprint_uuid" uuid,
	"title" text DEFAULT '' NOT NULL,
	"position" integer NOT NULL,
	"developer_prompt" text DEFAULT '' NOT NULL,
	"user_hint" text DEFAULT '' NOT NULL,
	"tool_mode" text DEFAULT '' NOT NULL,
	"mcp_url" text DEFAULT '' NOT NULL,
	CONSTRAINT "document_sections_document_id_uuid_pk" PRIMARY KEY("document_id","uuid")
);
--> statement-breakpoint
CREATE TABLE "document_subsections" (
	"document_id" uuid NOT NULL,
	"section_uuid" uuid NOT NULL,
	"uuid" uuid NOT NULL,
	"blueprint_uuid" uuid,
	"title" text DEFAULT '' NOT NULL,
	"position" integer NOT NULL,
	"developer_prompt" text DEFAULT '' NOT NULL,
	"user_hint" text DEFAULT '' NOT NULL,
	"tool_mode" text DEFAULT '' NOT NULL,
	"mcp_url" text DEFAULT '' NOT NULL,
	"finalized" boolean DEFAULT false NOT NULL,
	CONSTRAINT "document_subsections_document_id_uuid_pk" PRIMARY KEY("document_id","uuid")
);
--> statement-breakpoint
CREATE TABLE "documents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"blueprint_id" uuid,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"content" jsonb NOT NULL,
	"revision" integer DEFAULT 1 NOT NULL,
	"finalized_count" integer DEFAULT 0 NOT NULL,
	"subsection_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "organization_members" (
	"organization_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"role" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "organization_members_organization_id_user_id_pk" PRIMARY KEY("organization_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "organizations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "activities" ADD CONSTRAINT "activities_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activities" ADD CONSTRAINT "activities_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "blueprint_allowed_orgs" ADD CONSTRAINT "blueprint_allowed_orgs_blueprint_id_blueprints_id_fk" FOREIGN KEY ("blueprint_id") REFERENCES "public"."blueprints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "blueprint_allowed_orgs" ADD CONSTRAINT "blueprint_allowed_orgs_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "blueprint_sections" ADD CONSTRAINT "blueprint_sections_blueprint_id_blueprints_id_fk" FOREIGN KEY ("blueprint_id") REFERENCES "public"."blueprints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "blueprint_subsections" ADD CONSTRAINT "blueprint_subsections_blueprint_id_blueprints_id_fk" FOREIGN KEY ("blueprint_id") REFERENCES "public"."blueprints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "blueprints" ADD CONSTRAINT "blueprints_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_sections" ADD CONSTRAINT "document_sections_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_subsections" ADD CONSTRAINT "document_subsections_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_blueprint_id_blueprints_id_fk" FOREIGN KEY ("blueprint_id") REFERENCES "public"."blueprints"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_members" ADD CONSTRAINT "organization_members_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_members" ADD CONSTRAINT "organization_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organizations" ADD CONSTRAINT "organizations_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "activities_owner_created_idx" ON "activities" USING btree ("owner_id","created_at");--> statement-breakpoint
CREATE INDEX "activities_object_idx" ON "activities" USING btree ("owner_id","target","object_id");--> statement-breakpoint
CREATE INDEX "blueprint_allowed_orgs_organization_id_idx" ON "blueprint_allowed_orgs" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "blueprints_owner_id_idx" ON "blueprints" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "blueprints_listing_idx" ON "blueprints" USING btree ("status","visibility");--> statement-breakpoint
CREATE UNIQUE INDEX "blueprints_default_idx" ON "blueprints" USING btree ("is_default") WHERE "blueprints"."is_default";--> statement-breakpoint
CREATE INDEX "documents_owner_updated_idx" ON "documents" USING btree ("owner_id","updated_at");--> statement-breakpoint
CREATE INDEX "organization_members_user_id_idx" ON "organization_members" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "organizations_slug_idx" ON "organizations" USING btree ("slug");