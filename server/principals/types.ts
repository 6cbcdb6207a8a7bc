// The caller of every server function: who is acting, and of which kind.
import type { principals } from "../../db/schema";

export type PrincipalRow = typeof principals.$inferSelect;

export interface Principal {
  id: string;
  kind: "human" | "agent";
  name: string;
  role: string | null;
}

export function toPrincipal(row: PrincipalRow): Principal {
  return { id: row.id, kind: row.kind, name: row.name, role: row.role };
}
