// MAST category 2, inter-agent misalignment, as a journal shows it: work started afresh where a lost run
// should have been carried on (FM-2.1), writes on another task's files (FM-2.3), input left unheeded (FM-2.5)
// and a run whose words contradict what its tools returned (FM-2.6). DIAGNOSIS.md says why FM-2.2 and
// FM-2.4 are not here.
import { failingOf } from "./verification";
import { payloadOf } from "../journal/payloads";
import type { JournalRecord } from "../journal/load";
import { pathMatcher } from "../reservations/patterns";
import { finding, type Finding } from "./finding";
import { type Call, callEventId, exitCodeOf, type Facts, finishedOf, RUN_TESTS, type RunFacts, runsInOrder, landedNext, uniq } from "./journal-facts";

const on = (facts: Facts, taskId: string | null) => (taskId ? ` on ${facts.names.task(taskId)}` : "");
const firstId = (run: RunFacts) => run.started?.id ?? Math.min(...run.calls.map(callEventId));
const lostLease = (run: RunFacts) => run.ended?.kind === "RunStopped" && /lost its lease/.test(payloadOf(run.ended, "RunStopped").result.reason);

/** FM-2.1: a fresh run on a task whose earlier run never finished and lost the task's lease: started over, not carried on. */
function conversationReset(facts: Facts): Finding[] {
  const runs = runsInOrder(facts).filter((run) => run.taskId && run.started);
  return runs.flatMap((fresh) => {
    const lost = runs
      .filter((r) => r !== fresh && r.taskId === fresh.taskId && firstId(r) < firstId(fresh) && finishedOf(r) === null)
      .map((r) => {
        const expiry = (facts.tasks.get(r.taskId!) ?? []).find((e) => e.kind === "LeaseExpired" && e.id > firstId(r) && e.id < firstId(fresh));
        return { run: r, proof: expiry ?? (lostLease(r) ? r.ended : undefined) };
      })
      .filter((l): l is { run: RunFacts; proof: JournalRecord } => l.proof !== undefined)
      .at(-1);
    if (!lost) return [];
    // The fresh run is the work of whoever took the task over (claimed it since), not a review of that work.
    const history = facts.tasks.get(fresh.taskId!) ?? [];
    const claimed = history.some((e) => e.kind === "TaskClaimed" && e.actor === fresh.actor && e.id > lost.proof.id && e.id < firstId(fresh));
    const first = !runs.some((r) => r !== fresh && r.taskId === fresh.taskId && firstId(r) > lost.proof.id && firstId(r) < firstId(fresh));
    if (!claimed || !first) return [];
    const before = facts.names.who(lost.run.actor);
    const again = facts.names.who(fresh.actor);
    return [
      finding("FM-2.1", {
        anchor: fresh.started!.id,
        reach: "cost",
        sentence: `${again} started ${facts.names.task(fresh.taskId)} over in a fresh run after ${before === again ? "its" : `${before}'s`} run lost the task's lease unfinished, instead of carrying that run on`,
        eventIds: [lost.run.started?.id ?? firstId(lost.run), lost.proof.id, fresh.started!.id],
        runIds: [lost.run.runId, fresh.runId],
        taskIds: [fresh.taskId],
        agents: [lost.run.actor, fresh.actor],
      }),
    ];
  });
}

/** The task `taskId` was filed under, as its TaskCreated says (a flight's tasks: its goal). */
function parentOf(facts: Facts, taskId: string): string | null {
  const created = (facts.tasks.get(taskId) ?? []).find((e) => e.kind === "TaskCreated");
  return created ? payloadOf(created, "TaskCreated").parentId : null;
}

/** Whether `earlier` was integrated before `later` was filed: work in turn (changes asked after it, a re-plan), not two tasks at once. */
function integratedBeforeFiled(facts: Facts, earlier: string, later: string): boolean {
  const filed = (facts.tasks.get(later) ?? []).find((e) => e.kind === "TaskCreated");
  const integrated = (facts.tasks.get(earlier) ?? []).find((e) => e.kind === "TaskIntegrated");
  return !!filed && !!integrated && integrated.id < filed.id;
}

/** Which tasks `taskId` waits for, as its TaskCreated says. */
function dependenciesOf(facts: Facts, taskId: string): string[] {
  const created = (facts.tasks.get(taskId) ?? []).find((e) => e.kind === "TaskCreated");
  return created ? (payloadOf(created, "TaskCreated").dependsOn ?? []) : [];
}

/**
 * FM-2.3: a run wrote outside its task: a path reserved for another task, a path outside its own task's
 * reservations, or (without reservations) a path another task's runs wrote first, the tasks not ordered
 * by a dependency nor in turn (the other integrated before this one was filed) — two tasks doing the same work.
 */
function taskDerailment(facts: Facts): Finding[] {
  const reserved = new Map<string, string[]>();
  for (const e of facts.events)
    if (e.kind === "ReservationGranted" && e.taskId) reserved.set(e.taskId, [...(reserved.get(e.taskId) ?? []), ...payloadOf(e, "ReservationGranted").patterns]);
  const matchers = new Map([...reserved].map(([taskId, patterns]) => [taskId, pathMatcher(patterns)]));
  const firstWriter = new Map<string, { taskId: string; call: Call }>();
  const found: Finding[] = [];
  for (const run of runsInOrder(facts)) {
    const taskId = run.taskId;
    if (!taskId) continue;
    const strays: { call: Call; why: string; other: Call | null; otherTask: string | null }[] = [];
    for (const call of run.calls.filter((c) => c.dispatched && c.writes).sort((a, b) => callEventId(a) - callEventId(b))) {
      const path = call.writes!;
      const holder = [...matchers].find(([other, matches]) => other !== taskId && matches(path));
      const own = matchers.get(taskId);
      const first = firstWriter.get(path);
      if (!first) firstWriter.set(path, { taskId, call });
      if (holder) strays.push({ call, why: `${path}, reserved for ${facts.names.task(holder[0])}`, other: null, otherTask: holder[0] });
      else if (own && !own(path)) strays.push({ call, why: `${path}, outside ${facts.names.task(taskId)}'s reservations`, other: null, otherTask: null });
      else if (
        !own &&
        first &&
        first.taskId !== taskId &&
        !dependenciesOf(facts, taskId).includes(first.taskId) &&
        !dependenciesOf(facts, first.taskId).includes(taskId) &&
        !integratedBeforeFiled(facts, first.taskId, taskId)
      )
        strays.push({ call, why: `${path}, which ${facts.names.task(first.taskId)} had changed already`, other: first.call, otherTask: first.taskId });
    }
    if (strays.length === 0) continue;
    const anchor = callEventId(strays[0].call);
    found.push(
      finding("FM-2.3", {
        anchor,
        reach: landedNext(facts, taskId, anchor) ? "landed" : "cost",
        sentence: `${facts.names.who(run.actor)}'s run${on(facts, taskId)} wrote ${uniq(strays.map((s) => s.why)).join("; ")}`,
        eventIds: strays.flatMap((s) => [s.call.dispatched!.id, ...(s.other?.dispatched ? [s.other.dispatched.id] : [])]),
        runIds: [run.runId, ...strays.map((s) => s.other?.runId ?? null)],
        taskIds: [taskId, ...strays.map((s) => s.otherTask)],
        agents: [run.actor],
      }),
    );
  }
  return found;
}

/** Whether any run on `taskId` wrote something between two events. */
function wroteBetween(facts: Facts, taskId: string, after: number, before: number): boolean {
  return [...facts.runs.values()].some((run) => run.taskId === taskId && run.calls.some((c) => c.writes && c.dispatched && c.dispatched.id > after && c.dispatched.id < before));
}

/** Whether a task filed under `taskId` (a goal's changes) was integrated between two events: the goal changed. */
function subtaskIntegratedBetween(facts: Facts, taskId: string, after: number, before: number): boolean {
  return facts.events.some((e) => e.kind === "TaskIntegrated" && e.id > after && e.id < before && !!e.taskId && parentOf(facts, e.taskId) === taskId);
}

/** FM-2.5 (a): a rejected task submitted again with nothing changed since the REJECT (by its own runs, or its subtasks'). */
function unchangedResubmissions(facts: Facts): Finding[] {
  const found: Finding[] = [];
  for (const [taskId, history] of facts.tasks) {
    for (const review of history) {
      if (review.kind !== "TaskReviewed" || payloadOf(review, "TaskReviewed").verdict !== "reject") continue;
      const again = history.find((e) => e.id > review.id && e.kind === "TaskSubmitted");
      if (!again || wroteBetween(facts, taskId, review.id, again.id) || subtaskIntegratedBetween(facts, taskId, review.id, again.id)) continue;
      const reason = payloadOf(review, "TaskReviewed").reason;
      found.push(
        finding("FM-2.5", {
          anchor: again.id,
          reach: landedNext(facts, taskId, again.id) ? "landed" : "cost",
          sentence: `${facts.names.who(again.actor)} submitted ${facts.names.task(taskId)} again unchanged after ${facts.names.who(review.actor)} rejected it${reason ? ` (${reason.length > 120 ? `${reason.slice(0, 119)}…` : reason})` : ""}`,
          eventIds: [review.id, again.id],
          taskIds: [taskId],
          agents: [again.actor, review.actor],
        }),
      );
    }
  }
  return found;
}

/** Messages addressed to `who` in `room` with a seq in (after, through]: sent to it, or naming it with an @mention. */
function addressedTo(facts: Facts, who: string, room: string, after: number, through: number): JournalRecord[] {
  return facts.events.filter((e) => {
    if (e.kind !== "MessageSent" || e.actor === who) return false;
    const m = payloadOf(e, "MessageSent");
    return m.room === room && m.seq > after && m.seq <= through && (m.to === who || (m.mentions ?? []).includes(who));
  });
}

/** FM-2.5 (b): a post passed on a hold token over unread messages addressed to the poster. */
function heldOverAddressedMail(facts: Facts): Finding[] {
  return facts.events.flatMap((post) => {
    if (post.kind !== "MessageSent" || !post.actor) return [];
    const { room, heldSeq } = payloadOf(post, "MessageSent");
    if (heldSeq === null || heldSeq === undefined) return [];
    const refusal = facts.events.findLast(
      (e) =>
        e.id < post.id && e.kind === "GateRejected" && e.actor === post.actor && payloadOf(e, "GateRejected").gate === "freshness" && payloadOf(e, "GateRejected").room === room,
    );
    const cursor = refusal ? Number(payloadOf(refusal, "GateRejected").figures.cursor ?? 0) : 0;
    const unheard = addressedTo(facts, post.actor, room, cursor, heldSeq);
    if (unheard.length === 0) return [];
    const from = uniq(unheard.map((m) => facts.names.who(m.actor)));
    return [
      finding("FM-2.5", {
        anchor: post.id,
        reach: "absorbed",
        sentence: `${facts.names.who(post.actor)} posted in #${room} over ${unheard.length === 1 ? "a message" : `${unheard.length} messages`} addressed to it from ${from.join(", ")} without reading ${unheard.length === 1 ? "it" : "them"}`,
        eventIds: [...unheard.map((m) => m.id), ...(refusal ? [refusal.id] : []), post.id],
        taskIds: [post.taskId, ...unheard.map((m) => m.taskId)],
        agents: [post.actor, ...unheard.map((m) => m.actor)],
      }),
    ];
  });
}

/** Whether `who` answered on `taskId` (or to `asker`) after event `after`: a message, a verdict or a run. */
function answered(facts: Facts, who: string, taskId: string, asker: string | null, after: number): boolean {
  return facts.events.some((e) => {
    if (e.id <= after || e.actor !== who) return false;
    if (e.kind === "MessageSent") return e.taskId === taskId || (asker !== null && payloadOf(e, "MessageSent").to === asker);
    return (e.kind === "RunStarted" || e.kind === "TaskReviewed") && e.taskId === taskId;
  });
}

/**
 * FM-2.5 (c): what was addressed to someone on a task went unanswered until a deadline chased it (the
 * harness's ReplyReasked, then ReplyEscalated name the silent one). Judged on the deadline's word, never
 * on an absence alone: a request delivered a moment ago is not yet ignored.
 */
function unansweredUntilChased(facts: Facts): Finding[] {
  const found: Finding[] = [];
  for (const [taskId, history] of facts.tasks) {
    const chases = history.filter((e) => e.kind === "ReplyReasked" || e.kind === "ReplyEscalated");
    for (const silent of uniq(chases.map((e) => (e.data as { awaiting: string | null }).awaiting).filter((a): a is string => a !== null))) {
      const mine = chases.filter((e) => (e.data as { awaiting: string | null }).awaiting === silent);
      const asked = history.filter(
        (e) => e.kind === "MessageSent" && e.id < mine.at(-1)!.id && payloadOf(e, "MessageSent").to === silent && !answered(facts, silent, taskId, e.actor, e.id),
      );
      if (asked.length === 0) continue;
      const askers = uniq(asked.map((e) => `${facts.names.who(e.actor)}'s ${payloadOf(e, "MessageSent").performative ?? "message"}`));
      found.push(
        finding("FM-2.5", {
          anchor: mine[0].id,
          reach: "cost",
          sentence: `${facts.names.who(silent)} did not answer ${askers.join(" or ")} on ${facts.names.task(taskId)}${mine.some((e) => e.kind === "ReplyEscalated") ? ", re-asked and then escalated" : ", and was re-asked"}`,
          eventIds: [...asked.map((e) => e.id), ...mine.map((e) => e.id)],
          taskIds: [taskId],
          agents: [...asked.map((e) => e.actor), silent],
        }),
      );
    }
  }
  return found;
}

/** A clause that says tests passed (and does not say they failed): "the suite passes", "all tests pass", "exit code 0". */
export function claimsPassingTests(words: string): boolean {
  return words
    .split(/[.;\n]+/)
    .some(
      (clause) =>
        (/\b(tests?|suite|specs?)\b.{0,40}\b(pass(es|ed|ing)?|green|succeed(s|ed)?)\b/i.test(clause) || /\bexit code 0\b/i.test(clause)) &&
        !/\b(fail(s|ed|ing)?|not|n't|never|red|broken)\b/i.test(clause),
    );
}

/** FM-2.6: a run says its tests pass while the last test run it made did not pass. */
function reasoningActionMismatch(facts: Facts): Finding[] {
  return runsInOrder(facts).flatMap((run) => {
    const result = finishedOf(run);
    if (result?.status !== "done") return [];
    const words = [result.summary ?? "", ...(result.evidence ?? [])].join("\n");
    const tests = run.calls.filter((c) => c.tool === RUN_TESTS && c.returned.length > 0).sort((a, b) => callEventId(a) - callEventId(b));
    const last = tests.at(-1);
    if (!last || !claimsPassingTests(words)) return [];
    const code = exitCodeOf(last);
    if (code === 0) return [];
    // Its submission's own tests judge it where they were named: a failure red at the baseline and no target of its is another task's.
    const submitted = (facts.tasks.get(run.taskId ?? "") ?? []).find((e) => e.kind === "TaskSubmitted" && e.id > run.ended!.id && e.actor === run.actor);
    const failing = failingOf(submitted ? payloadOf(submitted, "TaskSubmitted").tests : undefined);
    if (failing?.length === 0) return [];
    const saw = failing ? `its run shows ${failing.join("; ")}` : code === null ? "its last test run did not finish" : `its last test run exited ${code}`;
    return [
      finding("FM-2.6", {
        anchor: run.ended!.id,
        reach: landedNext(facts, run.taskId, run.ended!.id) ? "landed" : "cost",
        sentence: `${facts.names.who(run.actor)}'s run${on(facts, run.taskId)} said its tests pass (“${(result.summary ?? "").slice(0, 100)}”) but ${saw}`,
        eventIds: [last.returned.at(-1)!.id, run.ended!.id],
        runIds: [run.runId],
        taskIds: [run.taskId],
        agents: [run.actor],
      }),
    ];
  });
}

export function misalignmentFailures(facts: Facts): Finding[] {
  return [
    ...conversationReset(facts),
    ...taskDerailment(facts),
    ...unchangedResubmissions(facts),
    ...heldOverAddressedMail(facts),
    ...unansweredUntilChased(facts),
    ...reasoningActionMismatch(facts),
  ];
}
