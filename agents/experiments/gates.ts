// The gates experiment: three conversations the relay's gates exist for — a courtesy loop, parroting and stale
// speech — each flown twice by the same scripted actors, once through Quorum's relay and once through a
// baseline relay that writes the same rows without asking the gates (./relays.ts). It counts what each arm let
// into the room, what the agents spent reading and writing, whether a gate stopped the loop, and when the
// task ended, on the hub's clock (each tick 5 s of it, so the rate floor and the human's presence behave as they
// would in time).
import { randomBytes } from "node:crypto";
import { z } from "zod";
import type { Db } from "../../db/client";
import { manualClock } from "../../domain/clock";
import { EXPERIMENT_CATALOG, type ExperimentTable } from "../../domain/experiments/report";
import type { Principal } from "../../domain/principal";
import { createAgent, ensureHuman } from "../../domain/principals/create-principal";
import { advanceCursor } from "../../domain/rooms/cursor";
import { readInbox } from "../../domain/rooms/inbox";
import { createRoom } from "../../domain/rooms/rooms";
import { estimateTokens } from "../model/model-client";
import { databaseOf, type Experiment } from "./experiment";
import { baselineRelay, gatedRelay, type Relay } from "./relays";
import { type ActorScript, type ActorState, conversationScenarios, type Scenario } from "./gate-scenarios";

/** Simulated seconds a tick takes: every actor acts once a tick. */
export const TICK_MS = 5_000;
/** What an agent's turn costs besides what it reads: its instructions and the task, as tokens. */
export const TURN_OVERHEAD_TOKENS = 100;

export const gatesParameters = z.strictObject({
  turns: z.coerce.number().int().min(10).max(2_000).default(120),
});
export type GatesParameters = z.infer<typeof gatesParameters>;

interface Actor {
  script: ActorScript;
  principal: Principal;
  state: ActorState;
  /** What it composed and will send at its next turn (a model answers a turn after it read). */
  draft: string | null;
  /** Refused by a loop gate: it waits for a human to speak before it tries again. */
  heldForHuman: boolean;
  /** Refused by the rate floor: not before this time. */
  notBefore: number;
}

export interface ArmResult {
  scenario: string;
  relay: string;
  /** Messages the agents got into the room. */
  messages: number;
  refused: number;
  /** Refusals by gate. */
  refusedBy: Record<string, number>;
  tokens: number;
  /** The task's end on the hub's clock, in seconds from the first message, or null when the tick cap cut it. */
  endedAfterSeconds: number | null;
  /** The last state the scenario checks (the port, the build…), as it read at the end. */
  outcome: string;
}

/** Flies one scenario through one relay; every actor is new, so no gate carries state from another arm. */
export async function flyScenario(db: Db, scenario: Scenario, relay: Relay, maxTicks: number): Promise<ArmResult> {
  const clock = manualClock(new Date("2026-01-05T09:00:00.000Z"));
  const start = clock.now().getTime();
  const suffix = randomBytes(3).toString("hex");
  const nameOf = (role: string) => `${scenario.name}-${role}-${suffix}`;
  const actors: Actor[] = [];
  for (const script of scenario.actors) {
    const name = nameOf(script.role);
    const principal = script.human ? await ensureHuman(db, name, clock) : await createAgent(db, null, { name, role: "coder" }, clock);
    actors.push({ script, principal, state: { read: [], said: [], awake: 0 }, draft: null, heldForHuman: false, notBefore: 0 });
  }
  const room = `${scenario.name}-${suffix}`;
  await createRoom(db, actors.find((a) => a.script.human)!.principal, { name: room }, clock);
  const names = Object.fromEntries(actors.map((a) => [a.script.role, a.principal.name]));
  const result: ArmResult = { scenario: scenario.title, relay: relay.name, messages: 0, refused: 0, refusedBy: {}, tokens: 0, endedAfterSeconds: null, outcome: "" };
  let lastPostAt = start;
  const states = () => actors.map((a) => ({ role: a.script.role, state: a.state }));

  /** Reads the actor's new mail, acks it, and (an agent) pays for it; true when there was any. */
  const read = async (actor: Actor): Promise<boolean> => {
    const mail = await readInbox(db, actor.principal, room);
    if (mail.items.length === 0) return false;
    for (const m of mail.items) actor.state.read.push({ seq: m.seq, from: roleOf(m.senderName), human: m.senderKind !== "agent", body: m.body });
    await advanceCursor(db, actor.principal, room, { seq: mail.items[mail.items.length - 1].seq }, clock);
    if (!actor.script.human) result.tokens += TURN_OVERHEAD_TOKENS + mail.items.reduce((n, m) => n + estimateTokens(m.body), 0);
    if (mail.items.some((m) => m.senderKind !== "agent")) actor.heldForHuman = false;
    return true;
  };
  const roleOf = (name: string) => actors.find((a) => a.principal.name === name)?.script.role ?? name;
  const compose = (actor: Actor, tick: number) => {
    const body = actor.script.compose(actor.state, { tick, names });
    if (body && !actor.script.human) result.tokens += estimateTokens(body);
    return body;
  };

  let tick = 0;
  for (; tick < maxTicks; tick++) {
    let active = false;
    for (const actor of actors) {
      const now = clock.now().getTime();
      if (actor.script.human) {
        await read(actor);
        const body = compose(actor, tick);
        if (body) {
          await relay.post(actor.principal, room, body, clock);
          actor.state.said.push(body);
          active = true;
        }
        continue;
      }
      if (actor.draft && !actor.heldForHuman && now >= actor.notBefore) {
        const outcome = await relay.post(actor.principal, room, actor.draft, clock);
        active = true;
        if (outcome.ok) {
          result.messages++;
          actor.state.said.push(actor.draft);
          actor.draft = null;
          lastPostAt = now;
          if (result.endedAfterSeconds === null && scenario.done(states())) result.endedAfterSeconds = (now - start) / 1000;
        } else {
          result.refused++;
          result.refusedBy[outcome.gate] = (result.refusedBy[outcome.gate] ?? 0) + 1;
          if (outcome.code === "stale") {
            // The refusal shows what it had not read: it reads that, and answers what is asked now.
            await read(actor);
            actor.draft = compose(actor, tick);
          } else if (outcome.code === "duplicate") actor.draft = null;
          else if (outcome.code === "rate_limited") actor.notBefore = now + (outcome.retryAfterMs ?? TICK_MS);
          else actor.heldForHuman = true;
        }
      }
      const news = await read(actor);
      if (news || actor.script.everyTick) {
        actor.state.awake++;
        if (!actor.draft) actor.draft = compose(actor, tick);
        if (actor.draft) active = true;
      }
    }
    if (result.endedAfterSeconds !== null) break;
    clock.advance(TICK_MS);
    // Nothing sent and nothing left that could be sent: the conversation is over.
    if (!active && actors.every((a) => !a.draft || a.heldForHuman)) break;
  }
  // A conversation with no goal of its own ends when the room goes quiet, unless the cap cut it first.
  if (result.endedAfterSeconds === null && tick < maxTicks && !scenario.hasGoal) result.endedAfterSeconds = (lastPostAt - start) / 1000;
  result.outcome = scenario.outcome(states());
  return result;
}

/** The gates that stop a loop of speech (a refusal by freshness or the rate floor only delays a message). */
const LOOP_GATES = ["lapping", "two-tier cap", "duplicate"];

function loopStopped(arm: ArmResult): string {
  const by = LOOP_GATES.filter((gate) => arm.refusedBy[gate]);
  return by.length ? `yes, by ${by.join(" and ")}` : "no";
}

function refusals(arm: ArmResult): string {
  const gates = Object.entries(arm.refusedBy);
  return gates.length ? gates.map(([gate, n]) => `${n} (${gate})`).join(", ") : "0";
}

export async function gatesTable(db: Db, params: GatesParameters, progress: (line: string) => void = () => {}): Promise<ExperimentTable> {
  const rows: string[][] = [];
  const arms: ArmResult[] = [];
  for (const scenario of conversationScenarios()) {
    for (const relay of [gatedRelay(db), baselineRelay(db)]) {
      progress(`${scenario.title}: ${relay.name}`);
      const arm = await flyScenario(db, scenario, relay, params.turns);
      arms.push(arm);
      rows.push([
        arm.scenario,
        arm.relay,
        String(arm.messages),
        refusals(arm),
        arm.tokens.toLocaleString("en-US"),
        loopStopped(arm),
        arm.endedAfterSeconds === null ? `not reached (cut at ${(params.turns * TICK_MS) / 1000} s)` : `${arm.endedAfterSeconds} s`,
        arm.outcome,
      ]);
    }
  }
  return {
    title: "The relay's gates on and off: a courtesy loop, parroting and stale speech",
    question: "What do the gates keep out of a room, and what does that save, when the same scripted agents talk through Quorum's relay and through a relay without gates?",
    parameters: params,
    columns: ["conversation", "relay", "messages", "refused (by gate)", "tokens", "loop stopped", "time to the task's end", "how it ended"],
    rows,
    notes: [
      "Gates on is Quorum's own post (domain/rooms/post-message.ts), whose gates are decided in SQL for every agent's post; the product has no switch to turn them off. The baseline relay is this experiment's own code (agents/experiments/relays.ts): it writes the same rows (the room's seq, the message, MessageSent, MessageDelivered) without asking the gate function. It exists only here.",
      "The actors are the same scripts in both arms; a model answers a turn after it read, so what it says was composed from what it had read then. On a stale refusal it reads what it missed and composes again; on a duplicate it drops the message; held by the lapping or two-tier gate it waits for a human; rate-limited it waits as told. Humans are never gated.",
      `Messages counts the agents' messages that reached the room (humans' not included). Tokens are the agents' model tokens estimated as the model seam does (4 characters a token) over what each reads and writes, plus ${TURN_OVERHEAD_TOKENS} a turn for its instructions; a refused message was still written, so it is paid for.`,
      `Time is the hub's clock: every actor acts once a tick of ${TICK_MS / 1000} s. The task ends when the conversation's goal is met (the build reported green, the log level set) or, for the courtesy loop, when the room goes quiet; a run that never ends is cut at ${params.turns} ticks.`,
    ],
  };
}

export const gatesExperiment: Experiment<GatesParameters> = {
  name: "gates",
  ...EXPERIMENT_CATALOG.gates,
  parameters: gatesParameters,
  database: true,
  run: (ctx, params) => gatesTable(databaseOf(ctx).server.db, params, ctx.progress),
};
