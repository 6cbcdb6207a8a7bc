// Which react-query caches each journal event makes stale. A page adds a line for its kinds.
import type { QueryKey } from "@tanstack/react-query";

export interface Notice {
  id: number;
  kind: string;
  actor: string | null;
  taskId: string | null;
  runId: string | null;
  room: string | null;
}

/** Every event shows in the journal; the rest depends on the kind. */
export function staleQueries(notice: Notice): QueryKey[] {
  const keys: QueryKey[] = [["journal"]];
  switch (notice.kind) {
    case "MessageSent":
      if (notice.room) keys.push(["messages", notice.room]);
      break;
    case "PrincipalCreated":
    case "HumanSignedIn":
      keys.push(["principals"]);
      break;
    case "RoomCreated":
      keys.push(["rooms"]);
      break;
  }
  return keys;
}
