CREATE TABLE "features" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"link" text NOT NULL,
	"tag" text NOT NULL,
	CONSTRAINT "features_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "menus" (
	"id" serial PRIMARY KEY NOT NULL,
	"parent_id" integer,
	"name" text NOT NULL,
	"route" text,
	"title" boolean DEFAULT false NOT NULL,
	"position" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "permissions" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"feature_id" integer NOT NULL,
	"action" text NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "permissions_name_unique" UNIQUE("name"),
	CONSTRAINT "permissions_feature_action_unique" UNIQUE("feature_id","action"),
	CONSTRAINT "permissions_action_check" CHECK ("permissions"."action" in ('list', 'add', 'show', 'edit', 'delete', 'status'))
);
--> statement-breakpoint
CREATE TABLE "role_permissions" (
	"id" serial PRIMARY KEY NOT NULL,
	"role_id" integer NOT NULL,
	"permission_id" integer NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "role_permissions_unique" UNIQUE("role_id","permission_id")
);
--> statement-breakpoint
CREATE TABLE "role_windows" (
	"role_id" integer NOT NULL,
	"menu_id" integer NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "role_windows_role_id_menu_id_pk" PRIMARY KEY("role_id","menu_id")
);
--> statement-breakpoint
CREATE TABLE "roles" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"can_overwrite" boolean DEFAULT false NOT NULL,
	"guard_name" text DEFAULT 'api' NOT NULL,
	"is_builtin" boolean DEFAULT false NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_roles" (
	"user_id" integer NOT NULL,
	"role_id" integer NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "user_roles_user_id_role_id_pk" PRIMARY KEY("user_id","role_id")
);
--> statement-breakpoint
CREATE TABLE "covers" (
	"id" serial PRIMARY KEY NOT NULL,
	"lib_couvert" text NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "entities" (
	"id" serial PRIMARY KEY NOT NULL,
	"libelle" text NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "natures" (
	"id" serial PRIMARY KEY NOT NULL,
	"libnature" text NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sectors" (
	"id" serial PRIMARY KEY NOT NULL,
	"libsecteur" text NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "structures" (
	"id" serial PRIMARY KEY NOT NULL,
	"designation" text NOT NULL,
	"sigl" text NOT NULL,
	"adresse_struct" text NOT NULL,
	"email" text NOT NULL,
	"telephone" text NOT NULL,
	"sector_id" integer NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "affectations" (
	"id" serial PRIMARY KEY NOT NULL,
	"reforme_id" integer NOT NULL,
	"sens" smallint NOT NULL,
	"instruction" text,
	"from_stage" smallint,
	"to_stage" smallint,
	"event" text NOT NULL,
	"user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "affectations_sens_check" CHECK ("affectations"."sens" in (-1, 0, 1))
);
--> statement-breakpoint
CREATE TABLE "backups" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"size" bigint NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "backups_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "objectifs" (
	"id" serial PRIMARY KEY NOT NULL,
	"libobjectif" text NOT NULL,
	"reforme_id" integer NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reforme_files" (
	"id" serial PRIMARY KEY NOT NULL,
	"reforme_id" integer,
	"name_file" text NOT NULL,
	"name" text NOT NULL,
	"original_name" text NOT NULL,
	"size" bigint NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reforme_files_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "reformes" (
	"id" serial PRIMARY KEY NOT NULL,
	"libref" text NOT NULL,
	"typeref" text NOT NULL,
	"nature_id" integer NOT NULL,
	"objectif_glob" text NOT NULL,
	"popul_cible" text NOT NULL,
	"couverture_id" integer NOT NULL,
	"struct_impl" text NOT NULL,
	"date_debut" date NOT NULL,
	"date_fin" date NOT NULL,
	"periodexe" text NOT NULL,
	"date_enreg" timestamp with time zone DEFAULT now() NOT NULL,
	"cadreinst_mor" text,
	"etat_mor" text,
	"montant_prevu" numeric(15, 2),
	"montant_trealise" numeric(15, 2),
	"difficult" text,
	"solution" text,
	"perspective" text,
	"is_published" boolean DEFAULT false NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"stage" smallint DEFAULT 1 NOT NULL,
	"structure_id" integer NOT NULL,
	"created_by" integer NOT NULL,
	"search_text" text GENERATED ALWAYS AS (translate(lower("reformes"."libref" || ' ' || "reformes"."typeref" || ' ' || "reformes"."periodexe" || ' ' || replace(coalesce("reformes"."etat_mor", ''), '_', ' ') || ' ' || "reformes"."objectif_glob" || ' ' || "reformes"."popul_cible" || ' ' || "reformes"."struct_impl"), 'àáâãäåçèéêëìíîïñòóôõöùúûüýÿ', 'aaaaaaceeeeiiiinooooouuuuyy')) STORED,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reformes_typeref_check" CHECK ("reformes"."typeref" in ('SECTORIELLE', 'TRANSVERSALE')),
	CONSTRAINT "reformes_stage_check" CHECK ("reformes"."stage" between 1 and 3),
	CONSTRAINT "reformes_dates_check" CHECK ("reformes"."date_debut" <= "reformes"."date_fin"),
	CONSTRAINT "reformes_etat_check" CHECK ("reformes"."etat_mor" is null or "reformes"."etat_mor" in ('en_cours', 'planifiee', 'terminee', 'suspendue')),
	CONSTRAINT "reformes_amounts_check" CHECK (coalesce("reformes"."montant_prevu", 0) >= 0 and coalesce("reformes"."montant_trealise", 0) >= 0)
);
--> statement-breakpoint
CREATE TABLE "resultats" (
	"id" serial PRIMARY KEY NOT NULL,
	"libresult" text NOT NULL,
	"indicateur" text NOT NULL,
	"valeur_cible" numeric(18, 4) NOT NULL,
	"valeurref" numeric(18, 4) NOT NULL,
	"objectif_id" integer NOT NULL,
	"status" smallint DEFAULT 0 NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "resultats_status_check" CHECK ("resultats"."status" in (0, 1))
);
--> statement-breakpoint
CREATE TABLE "suivi_results" (
	"id" serial PRIMARY KEY NOT NULL,
	"taux_realisat" numeric(18, 4) NOT NULL,
	"valeur_realise" numeric(18, 4) NOT NULL,
	"date" date NOT NULL,
	"result_id" integer NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "suivi_results_positive_check" CHECK ("suivi_results"."taux_realisat" >= 0 and "suivi_results"."valeur_realise" >= 0)
);
--> statement-breakpoint
CREATE TABLE "password_reset_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "password_reset_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "refresh_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"token_hash" text NOT NULL,
	"family_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"rotated_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "refresh_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "user_settings" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"signature" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_settings_user_id_unique" UNIQUE("user_id")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"lastname" text NOT NULL,
	"firstname" text NOT NULL,
	"address" text DEFAULT '' NOT NULL,
	"email" text NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"structure_id" integer NOT NULL,
	"password_hash" text NOT NULL,
	"must_change_password" boolean DEFAULT false NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"is_signer" boolean DEFAULT false NOT NULL,
	"failed_logins" integer DEFAULT 0 NOT NULL,
	"locked_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "menus" ADD CONSTRAINT "menus_parent_id_menus_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."menus"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "permissions" ADD CONSTRAINT "permissions_feature_id_features_id_fk" FOREIGN KEY ("feature_id") REFERENCES "public"."features"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "role_permissions" ADD CONSTRAINT "role_permissions_role_id_roles_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."roles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "role_permissions" ADD CONSTRAINT "role_permissions_permission_id_permissions_id_fk" FOREIGN KEY ("permission_id") REFERENCES "public"."permissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "role_windows" ADD CONSTRAINT "role_windows_role_id_roles_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."roles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "role_windows" ADD CONSTRAINT "role_windows_menu_id_menus_id_fk" FOREIGN KEY ("menu_id") REFERENCES "public"."menus"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_roles" ADD CONSTRAINT "user_roles_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_roles" ADD CONSTRAINT "user_roles_role_id_roles_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."roles"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "structures" ADD CONSTRAINT "structures_sector_id_sectors_id_fk" FOREIGN KEY ("sector_id") REFERENCES "public"."sectors"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "affectations" ADD CONSTRAINT "affectations_reforme_id_reformes_id_fk" FOREIGN KEY ("reforme_id") REFERENCES "public"."reformes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "affectations" ADD CONSTRAINT "affectations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "objectifs" ADD CONSTRAINT "objectifs_reforme_id_reformes_id_fk" FOREIGN KEY ("reforme_id") REFERENCES "public"."reformes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reforme_files" ADD CONSTRAINT "reforme_files_reforme_id_reformes_id_fk" FOREIGN KEY ("reforme_id") REFERENCES "public"."reformes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reforme_files" ADD CONSTRAINT "reforme_files_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reformes" ADD CONSTRAINT "reformes_nature_id_natures_id_fk" FOREIGN KEY ("nature_id") REFERENCES "public"."natures"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reformes" ADD CONSTRAINT "reformes_couverture_id_covers_id_fk" FOREIGN KEY ("couverture_id") REFERENCES "public"."covers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reformes" ADD CONSTRAINT "reformes_structure_id_structures_id_fk" FOREIGN KEY ("structure_id") REFERENCES "public"."structures"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reformes" ADD CONSTRAINT "reformes_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resultats" ADD CONSTRAINT "resultats_objectif_id_objectifs_id_fk" FOREIGN KEY ("objectif_id") REFERENCES "public"."objectifs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "suivi_results" ADD CONSTRAINT "suivi_results_result_id_resultats_id_fk" FOREIGN KEY ("result_id") REFERENCES "public"."resultats"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "suivi_results" ADD CONSTRAINT "suivi_results_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "password_reset_tokens" ADD CONSTRAINT "password_reset_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD CONSTRAINT "refresh_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_settings" ADD CONSTRAINT "user_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_structure_id_structures_id_fk" FOREIGN KEY ("structure_id") REFERENCES "public"."structures"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "roles_name_unique" ON "roles" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "covers_label_unique" ON "covers" USING btree (lower("lib_couvert"));--> statement-breakpoint
CREATE UNIQUE INDEX "entities_label_unique" ON "entities" USING btree (lower("libelle"));--> statement-breakpoint
CREATE UNIQUE INDEX "natures_label_unique" ON "natures" USING btree (lower("libnature"));--> statement-breakpoint
CREATE UNIQUE INDEX "sectors_label_unique" ON "sectors" USING btree (lower("libsecteur"));--> statement-breakpoint
CREATE UNIQUE INDEX "structures_label_unique" ON "structures" USING btree (lower("designation"));--> statement-breakpoint
CREATE INDEX "affectations_reforme_idx" ON "affectations" USING btree ("reforme_id","created_at");--> statement-breakpoint
CREATE INDEX "objectifs_reforme_idx" ON "objectifs" USING btree ("reforme_id");--> statement-breakpoint
CREATE INDEX "reforme_files_reforme_idx" ON "reforme_files" USING btree ("reforme_id");--> statement-breakpoint
CREATE INDEX "reformes_structure_stage_idx" ON "reformes" USING btree ("structure_id","stage");--> statement-breakpoint
CREATE INDEX "reformes_created_by_idx" ON "reformes" USING btree ("created_by");--> statement-breakpoint
CREATE INDEX "reformes_published_idx" ON "reformes" USING btree ("is_published","is_active","date_debut","id");--> statement-breakpoint
CREATE INDEX "reformes_date_enreg_idx" ON "reformes" USING btree ("date_enreg","id");--> statement-breakpoint
CREATE INDEX "reformes_nature_idx" ON "reformes" USING btree ("nature_id");--> statement-breakpoint
CREATE INDEX "reformes_couverture_idx" ON "reformes" USING btree ("couverture_id");--> statement-breakpoint
CREATE INDEX "resultats_objectif_idx" ON "resultats" USING btree ("objectif_id");--> statement-breakpoint
CREATE INDEX "suivi_results_result_idx" ON "suivi_results" USING btree ("result_id","date");--> statement-breakpoint
CREATE INDEX "refresh_tokens_user_idx" ON "refresh_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "refresh_tokens_family_idx" ON "refresh_tokens" USING btree ("family_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_unique" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "users_structure_idx" ON "users" USING btree ("structure_id");