// How a team member's run hears the room: at each turn boundary, what reached it since (domain/runs/mail.ts)
// goes into the next model call as mail. A scripted member cannot change course, so it says in the room that it
// heard and keeps its script — a person steering it learns at once that only a live model would listen.
import type { Mail } from "../../domain/runs/run-events";
import { takeRunMail } from "../../domain/runs/mail";
import type { ModelClient } from "../model/model-client";
import type { Inbox } from "../run-journal";
import type { TeamContext } from "./context";
import { speak, TEAM_ROOM } from "./speak";
import type { Member } from "./team";

export interface Hearing {
  inbox: Inbox;
  /** The run's wall-clock bound (QUORUM_RUN_MAX_MINUTES), handed to startRun with the inbox. */
  maxMinutes?: number;
  /** Says, for a scripted member, what it heard since the last time (call it when the run returns). */
  acknowledge(): Promise<void>;
}

const quoted = (body: string) => (body.length > 80 ? `${body.slice(0, 80)}…` : body);

export function hearing(ctx: TeamContext, me: Member, client: ModelClient): Hearing {
  const scripted = client.name === "scripted";
  let heard: Mail[] = [];
  return {
    inbox: async (tx, who) => {
      const mail = await takeRunMail(tx, who.agentId, { room: TEAM_ROOM }, ctx.clock);
      // Only people steer, and a scripted member answers only what was said to it: the team's own REQUESTs
      // and DONEs are what its script already follows, and a word to a colleague is theirs to answer.
      if (scripted) heard.push(...mail.filter((m) => m.fromKind === "human" && m.addressed));
      return mail;
    },
    maxMinutes: ctx.runMaxMinutes,
    acknowledge: async () => {
      if (heard.length === 0) return;
      const batch = heard;
      heard = [];
      const senders = [...new Set(batch.map((m) => m.fromName).filter((name) => name !== null))].map((name) => `@${name}`);
      const last = batch.at(-1)!;
      await speak(
        ctx.db,
        me.principal,
        {
          body: `${senders.join(" ")} heard ${batch.length === 1 ? `"${quoted(last.body)}"` : `${batch.length} messages (the last: "${quoted(last.body)}")`}. I am the scripted ${me.role} and keep my script; set QUORUM_MODEL for a team that takes it into account.`,
          performative: "INFORM",
          taskId: last.taskId ?? undefined,
        },
        ctx.clock,
        ctx.pace,
      );
    },
  };
}
