// MCP resources an agent re-reads instead of polling tools: its inbox, the claimable board, open votes, its promises and holds.
import { listCommitments } from "../../domain/commitments/list-commitments";
import { listDecisions } from "../../domain/decisions/list-decisions";
import { fail } from "../../domain/errors";
import { readInbox } from "../../domain/rooms/inbox";
import { listReservations } from "../../domain/reservations/list";
import { listTasks } from "../../domain/tasks/list";
import type { ToolContext } from "./tool";

export interface ResourceDef {
  uri: string;
  name: string;
  description: string;
  read(ctx: ToolContext): Promise<unknown>;
}

export const RESOURCES: ResourceDef[] = [
  {
    uri: "quorum://inbox",
    name: "inbox",
    description: "Your unacked mail in every room, oldest first (reading does not ack).",
    read: ({ db, caller }) => readInbox(db, caller, null, { limit: 100 }),
  },
  {
    uri: "quorum://board",
    name: "board",
    description: "Ready tasks you may claim (with acceptance criteria, not yours to approve).",
    read: async ({ db, caller }) => {
      const ready = await listTasks(db, { status: ["ready"], limit: 200 });
      return { items: ready.items.filter((t) => t.approverId !== caller.id && /\S/.test(t.acceptanceCriteria ?? "")) };
    },
  },
  {
    uri: "quorum://decisions",
    name: "decisions",
    description: "Open decisions awaiting ballots.",
    read: ({ db }) => listDecisions(db, { status: "open" }),
  },
  {
    uri: "quorum://commitments",
    name: "commitments",
    description: "Your commitments.",
    read: ({ db, caller, clock }) => listCommitments(db, { owner: caller.id }, clock.now()),
  },
  {
    uri: "quorum://reservations",
    name: "reservations",
    description: "Your live path reservations.",
    read: ({ db, caller, clock }) => listReservations(db, caller, { holder: "me" }, clock.now()),
  },
];

export async function readResource(uri: string, ctx: ToolContext) {
  const resource = RESOURCES.find((r) => r.uri === uri);
  if (!resource) throw fail.notFound("resource", `no resource '${uri}'`);
  return { contents: [{ uri, mimeType: "application/json", text: JSON.stringify(await resource.read(ctx)) }] };
}
