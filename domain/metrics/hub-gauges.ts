// The hub's state right now, read from the live tables and Postgres's own statistics at each scrape: the same on
// every app instance. One statement; each figure reads an index or pg_stat_activity, never a whole table.
import { sql } from "drizzle-orm";
import type { Db } from "../../db/client";

export interface HubGauges extends Record<string, unknown> {
  escalations_open: number;
  escalations_overdue: number;
  tasks_ready: number;
  tasks_in_progress: number;
  tasks_review: number;
  leases_overdue: number;
  webhook_backlog: number;
  webhook_pending: number;
  webhook_oldest_seconds: number;
  lock_waits: number;
  oldest_transaction_seconds: number;
  connections: number;
  max_connections: number;
}

export async function readHubGauges(db: Db): Promise<HubGauges> {
  const [row] = (await db.execute(sql`
    select
      (select count(*) from decisions where status = 'escalated')::float8 as escalations_open,
      (select count(*) from decisions where status = 'escalated' and escalation_deadline < now())::float8 as escalations_overdue,
      (select count(*) from tasks where status = 'ready')::float8 as tasks_ready,
      (select count(*) from tasks where status = 'in_progress')::float8 as tasks_in_progress,
      (select count(*) from tasks where status = 'review')::float8 as tasks_review,
      (select count(*) from tasks where status = 'in_progress' and lease_expires_at < now())::float8 as leases_overdue,
      (select count(*) from webhook_deliveries where status = 'pending' and next_attempt_at <= now())::float8 as webhook_backlog,
      (select count(*) from webhook_deliveries where status = 'pending')::float8 as webhook_pending,
      coalesce((select extract(epoch from now() - min(created_at)) from webhook_deliveries where status = 'pending'), 0)::float8 as webhook_oldest_seconds,
      (select count(*) from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock')::float8 as lock_waits,
      coalesce((select extract(epoch from max(clock_timestamp() - xact_start)) from pg_stat_activity
                 where datname = current_database() and backend_type = 'client backend' and xact_start is not null and pid <> pg_backend_pid()), 0)::float8 as oldest_transaction_seconds,
      (select count(*) from pg_stat_activity where backend_type = 'client backend')::float8 as connections,
      current_setting('max_connections')::float8 as max_connections`)) as unknown as HubGauges[];
  return row;
}
