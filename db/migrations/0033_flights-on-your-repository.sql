CREATE TABLE "task_dependencies" (
	"task_id" uuid NOT NULL,
	"depends_on_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "task_dependencies_task_id_depends_on_id_pk" PRIMARY KEY("task_id","depends_on_id"),
	CONSTRAINT "task_dependencies_not_self_check" CHECK ("task_dependencies"."task_id" <> "task_dependencies"."depends_on_id")
);
--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "waiting_on" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "budgets" ADD COLUMN "task_id" uuid;--> statement-breakpoint
ALTER TABLE "flight_tasks" ADD COLUMN "budget_id" uuid;--> statement-breakpoint
ALTER TABLE "flights" ADD COLUMN "number" bigserial NOT NULL;--> statement-breakpoint
ALTER TABLE "flights" ADD COLUMN "source" text;--> statement-breakpoint
ALTER TABLE "flights" ADD COLUMN "base_commit" text;--> statement-breakpoint
ALTER TABLE "flights" ADD COLUMN "branch" text;--> statement-breakpoint
ALTER TABLE "flights" ADD COLUMN "test_command" text;--> statement-breakpoint
ALTER TABLE "flights" ADD COLUMN "budget_id" uuid;--> statement-breakpoint
ALTER TABLE "flights" ADD COLUMN "created_by" uuid;--> statement-breakpoint
ALTER TABLE "flights" ADD COLUMN "planned_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "flights" ADD COLUMN "replanned_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "task_dependencies" ADD CONSTRAINT "task_dependencies_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_dependencies" ADD CONSTRAINT "task_dependencies_depends_on_id_tasks_id_fk" FOREIGN KEY ("depends_on_id") REFERENCES "public"."tasks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "task_dependencies_depends_on_idx" ON "task_dependencies" USING btree ("depends_on_id");--> statement-breakpoint
ALTER TABLE "budgets" ADD CONSTRAINT "budgets_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flight_tasks" ADD CONSTRAINT "flight_tasks_budget_id_budgets_id_fk" FOREIGN KEY ("budget_id") REFERENCES "public"."budgets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flights" ADD CONSTRAINT "flights_budget_id_budgets_id_fk" FOREIGN KEY ("budget_id") REFERENCES "public"."budgets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flights" ADD CONSTRAINT "flights_created_by_principals_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."principals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "budgets_task_idx" ON "budgets" USING btree ("task_id");--> statement-breakpoint
ALTER TABLE "flights" ADD CONSTRAINT "flights_number_unique" UNIQUE("number");--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_waiting_on_check" CHECK ("tasks"."waiting_on" >= 0);--> statement-breakpoint
-- The triggers' functions are db/functions/quorum_task_dependency_acyclic.sql and quorum_recount_waiting.sql,
-- which runMigrations installs right after the migrations; these placeholders only let the triggers be
-- created before them.
CREATE FUNCTION quorum_task_dependency_acyclic() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$;
--> statement-breakpoint
CREATE FUNCTION quorum_recount_waiting() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$;
--> statement-breakpoint
CREATE TRIGGER task_dependencies_acyclic BEFORE INSERT ON task_dependencies FOR EACH ROW EXECUTE FUNCTION quorum_task_dependency_acyclic();
--> statement-breakpoint
CREATE TRIGGER task_dependencies_hold AFTER INSERT ON task_dependencies FOR EACH ROW EXECUTE FUNCTION quorum_recount_waiting();
--> statement-breakpoint
CREATE TRIGGER tasks_release_dependents AFTER UPDATE OF status ON tasks FOR EACH ROW
  WHEN ((OLD.status = 'done') IS DISTINCT FROM (NEW.status = 'done')) EXECUTE FUNCTION quorum_recount_waiting();
--> statement-breakpoint
CREATE TRIGGER flight_tasks_release_dependents AFTER UPDATE OF integrated_at ON flight_tasks FOR EACH ROW
  WHEN (OLD.integrated_at IS DISTINCT FROM NEW.integrated_at) EXECUTE FUNCTION quorum_recount_waiting();
--> statement-breakpoint
-- The claim's rule reads what a task waits for: a new argument, so the old signatures go.
DROP FUNCTION IF EXISTS quorum_may_claim(text, text, uuid, uuid);
--> statement-breakpoint
DROP FUNCTION IF EXISTS quorum_claim_refusal(text, text, uuid, uuid);
--> statement-breakpoint
-- Flights from before plans were stamped were planned once they left planning.
UPDATE flights SET planned_at = updated_at WHERE status <> 'planning';
