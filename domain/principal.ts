// The caller of every server function: who is acting, and of which kind.
import type { principals } from "../db/schema";

export type PrincipalRow = typeof principals.$inferSelect;

export interface Principal {
  id: string;
  kind: "human" | "agent" | "system";
  name: string;
  role: string | null;
}

export function toPrincipal(row: PrincipalRow): Principal {
  return { id: row.id, kind: row.kind, name: row.name, role: row.role };
}

/** The name of Quorum's own principal, which posts announcements; never a human or an agent. */
export const SYSTEM_PRINCIPAL_NAME = "quorum";
