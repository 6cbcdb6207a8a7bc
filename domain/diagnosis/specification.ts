// MAST category 1, specification and system design, as a journal shows it: a role's tools overstepped
// (FM-1.2), a step done again while its result was in view (FM-1.3) or after it was dropped from the
// context (FM-1.4), and runs that end without knowing how to end (FM-1.5). DIAGNOSIS.md says why FM-1.1
// is not here.
import { payloadOf } from "../journal/payloads";
import type { JournalRecord } from "../journal/load";
import { finding, type Finding } from "./finding";
import { type Call, callEventId, type Facts, finishedOf, outcomeOf, type RunFacts, runsInOrder, uniq } from "./journal-facts";

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const on = (facts: Facts, taskId: string | null) => (taskId ? ` on ${facts.names.task(taskId)}` : "");
const runOfWho = (facts: Facts, run: RunFacts) => `${facts.names.who(run.actor)}'s run${on(facts, run.taskId)}`;

/** FM-1.2: a run called a tool its role was not given (the toolbox refused it before anything ran). */
function outsideTheRole(facts: Facts): Finding[] {
  return runsInOrder(facts).flatMap((run) => {
    if (!run.tools) return [];
    const tools = run.tools;
    const overstepped = run.calls.filter((c) => !c.dispatched && c.tool !== "done" && !tools.includes(c.tool) && outcomeOf(c)?.is_error);
    if (overstepped.length === 0) return [];
    const names = uniq(overstepped.map((c) => c.tool));
    return [
      finding("FM-1.2", {
        anchor: callEventId(overstepped[0]),
        reach: "absorbed",
        sentence: `${runOfWho(facts, run)} tried ${names.join(", ")}, which its role does not have (its tools: ${tools.join(", ")})`,
        eventIds: overstepped.flatMap((c) => c.returned.map((e) => e.id)),
        runIds: [run.runId],
        taskIds: [run.taskId],
        agents: [run.actor],
      }),
    ];
  });
}

interface Repeat {
  first: Call;
  again: Call[];
}

/**
 * Calls a run made again with the same tool and arguments while nothing was written between (a write
 * changes the world: reading again after it is new work). Split by whether the first was still in the
 * context when the run repeated it (`seen`) or had been dropped from it (`forgotten`).
 */
function repeatsOf(run: RunFacts): { seen: Repeat[]; forgotten: Repeat[] } {
  const seen = new Map<string, Repeat>();
  const forgotten = new Map<string, Repeat>();
  let since = new Map<string, Call>();
  const calls = run.calls.filter((c) => c.dispatched && c.tool !== "done").sort((a, b) => callEventId(a) - callEventId(b));
  for (const call of calls) {
    const key = `${call.tool}\u0000${call.args}`;
    const earlier = since.get(key);
    if (earlier) {
      const dropped = run.dropped.get(call.turn)?.droppedSteps ?? 0;
      const into = earlier.turn <= dropped ? forgotten : seen;
      const group = into.get(`${earlier.turn}:${earlier.callId}`) ?? { first: earlier, again: [] };
      group.again.push(call);
      into.set(`${earlier.turn}:${earlier.callId}`, group);
    } else {
      since.set(key, call);
    }
    if (call.writes) since = new Map([[key, call]]);
  }
  return { seen: [...seen.values()], forgotten: [...forgotten.values()] };
}

const what = (call: Call) => {
  const args = call.args === "{}" ? "" : ` ${call.args.length > 80 ? `${call.args.slice(0, 79)}…` : call.args}`;
  return `${call.tool}${args}`;
};

/** FM-1.3: a step repeated while its result was in view; a flake retried until it passed; a message refused as a verbatim repeat. */
function stepRepetition(facts: Facts): Finding[] {
  const found: Finding[] = [];
  for (const run of runsInOrder(facts)) {
    for (const { first, again } of repeatsOf(run).seen) {
      found.push(
        finding("FM-1.3", {
          anchor: callEventId(again[0]),
          reach: "absorbed",
          sentence: `${runOfWho(facts, run)} called ${what(first)} ${plural(again.length + 1, "time")} with nothing changed between`,
          eventIds: [first, ...again].flatMap((c) => [c.dispatched!.id, ...c.returned.map((e) => e.id)]),
          runIds: [run.runId],
          taskIds: [run.taskId],
          agents: [run.actor],
        }),
      );
    }
    for (const call of run.calls) {
      const attempts = call.returned.map((e) => payloadOf(e, "ToolReturned").observation);
      const failures = attempts.filter((o) => o.is_error && o.transient);
      if (call.retried.length === 0 || failures.length === 0 || outcomeOf(call)?.is_error !== false) continue;
      const reason = (failures[0] as { reason: string }).reason;
      found.push(
        finding("FM-1.3", {
          anchor: call.returned[0].id,
          reach: "absorbed",
          sentence: `${call.tool} failed transiently in ${runOfWho(facts, run)} (${reason}) and was run again ${plural(call.retried.length, "time")} until it passed: the flake was hidden, not fixed`,
          eventIds: [...call.returned, ...call.retried].map((e) => e.id),
          runIds: [run.runId],
          taskIds: [run.taskId],
          agents: [run.actor],
        }),
      );
    }
  }
  for (const refused of facts.events.filter((e) => e.kind === "GateRejected" && payloadOf(e, "GateRejected").gate === "duplicate")) {
    const d = payloadOf(refused, "GateRejected");
    const seq = d.figures.duplicateOfSeq;
    const original = facts.events.find(
      (e) => e.kind === "MessageSent" && e.actor === refused.actor && payloadOf(e, "MessageSent").room === d.room && payloadOf(e, "MessageSent").seq === seq,
    );
    found.push(
      finding("FM-1.3", {
        anchor: refused.id,
        reach: "absorbed",
        sentence: `${facts.names.who(refused.actor)} tried to say again in #${d.room} what it had said there already: the relay refused the repeat`,
        eventIds: [refused.id, ...(original ? [original.id] : [])],
        taskIds: [refused.taskId],
        agents: [refused.actor],
      }),
    );
  }
  return found;
}

/** FM-1.4: steps dropped from a run's context to fit it, then work they held done again. */
function lossOfHistory(facts: Facts): Finding[] {
  return runsInOrder(facts).flatMap((run) => {
    const { forgotten } = repeatsOf(run);
    if (forgotten.length === 0) return [];
    const repeats = forgotten.flatMap((r) => r.again).sort((a, b) => callEventId(a) - callEventId(b));
    const turns = uniq(repeats.map((c) => c.turn));
    const marks = turns.map((t) => run.dropped.get(t)!);
    const most = Math.max(...marks.map((m) => m.droppedSteps));
    return [
      finding("FM-1.4", {
        anchor: callEventId(repeats[0]),
        reach: "cost",
        sentence: `${runOfWho(facts, run)} lost ${plural(most, "earlier step")} from its context and did again what they held: ${uniq(forgotten.map((r) => what(r.first))).join("; ")}`,
        eventIds: [...marks.map((m) => m.event.id), ...forgotten.flatMap((r) => [r.first, ...r.again].map((c) => c.dispatched!.id))],
        runIds: [run.runId],
        taskIds: [run.taskId],
        agents: [run.actor],
      }),
    ];
  });
}

function endedWithout(facts: Facts, run: RunFacts): Finding[] {
  const result = finishedOf(run);
  if (result?.status !== "inconclusive" && result?.status !== "out_of_turns") return [];
  const why =
    result.status === "out_of_turns"
      ? `used all its turns without calling done`
      : `ended inconclusive (${(result as { reason?: string }).reason ?? "no reason"}) without calling done`;
  return [
    finding("FM-1.5", {
      anchor: run.ended!.id,
      reach: "cost",
      sentence: `${runOfWho(facts, run)} ${why}`,
      eventIds: [run.ended!.id],
      runIds: [run.runId],
      taskIds: [run.taskId],
      agents: [run.actor],
    }),
  ];
}

/** FM-1.5: runs that end inconclusive or out of turns, rework given up after its rejections, talk past one's turn. */
function unawareOfTermination(facts: Facts): Finding[] {
  const found = runsInOrder(facts).flatMap((run) => endedWithout(facts, run));
  for (const e of facts.events) {
    if (e.kind === "ReworkAbandoned") {
      found.push(
        finding("FM-1.5", {
          anchor: e.id,
          reach: "cost",
          sentence: `${facts.names.who(e.actor)} gave ${facts.names.task(e.taskId)} up after ${plural(payloadOf(e, "ReworkAbandoned").rejections, "rejection")} instead of finishing it`,
          eventIds: [e.id],
          taskIds: [e.taskId],
          agents: [e.actor],
        }),
      );
    }
    if (e.kind === "GateRejected" && ["lapping", "two_tier"].includes(payloadOf(e, "GateRejected").gate)) found.push(lapped(facts, e));
  }
  return found;
}

function lapped(facts: Facts, e: JournalRecord): Finding {
  const { room, figures } = payloadOf(e, "GateRejected");
  const sent = typeof figures.sent === "number" ? ` (${plural(figures.sent, "message")} this round)` : "";
  return finding("FM-1.5", {
    anchor: e.id,
    reach: "absorbed",
    sentence: `${facts.names.who(e.actor)} kept talking in #${room} past its turn${sent}: the relay held it`,
    eventIds: [e.id],
    taskIds: [e.taskId],
    agents: [e.actor],
  });
}

export function specificationFailures(facts: Facts): Finding[] {
  return [...outsideTheRole(facts), ...stepRepetition(facts), ...lossOfHistory(facts), ...unawareOfTermination(facts)];
}
