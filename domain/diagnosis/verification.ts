// MAST category 3, task verification and termination, as a journal shows it: done without checking
// (FM-3.1), accepted without a passing test run behind the ACCEPT (FM-3.2), and accepted, integrated and
// then the suite red (FM-3.3). Where a submission carried per-test results, its own tests judge it: the
// delta TaskSubmitted journals (DESIGN §21), so a test red at the baseline that is another task's is no failure.
import { payloadOf, type SubmittedTests } from "../journal/payloads";
import type { JournalRecord } from "../journal/load";
import { finding, type Finding } from "./finding";
import { type Call, callEventId, exitCodeOf, type Facts, finishedOf, RUN_TESTS, type RunFacts, runsInOrder, landedNext, uniq } from "./journal-facts";

const on = (facts: Facts, taskId: string | null) => (taskId ? ` on ${facts.names.task(taskId)}` : "");

/** The run's calls in journal order. */
const inOrder = (run: RunFacts) => [...run.calls].sort((a, b) => callEventId(a) - callEventId(b));

/** Whether a finished test run followed the run's last write (or, with no write, whether it ran the tests at all). */
function testedSinceLastWrite(run: RunFacts): boolean {
  const calls = inOrder(run).filter((c) => c.dispatched);
  const lastWrite = calls.findLastIndex((c) => c.writes !== null);
  return calls.slice(lastWrite + 1).some((c) => exitCodeOf(c) !== null);
}

/**
 * FM-3.1: a run that could run the tests declared itself done without a finished test run since its last edit, or
 * with no evidence. A role that runs no tests (a plan, a verdict) is judged by what it produced, not by evidence words.
 */
function prematureTermination(facts: Facts): Finding[] {
  return runsInOrder(facts).flatMap((run) => {
    const result = finishedOf(run);
    if (result?.status !== "done") return [];
    const canTest = run.tools?.includes(RUN_TESTS) ?? run.calls.some((c) => c.tool === RUN_TESTS);
    const untested = canTest && !testedSinceLastWrite(run);
    const empty = canTest && !(result.evidence ?? []).some((item) => item.trim() !== "");
    if (!untested && !empty) return [];
    const edited = run.calls.some((c) => c.writes && c.dispatched);
    const why = [untested ? (edited ? "without running the tests after its last edit" : "without running the tests") : null, empty ? "with no evidence" : null].filter(Boolean);
    return [
      finding("FM-3.1", {
        anchor: run.ended!.id,
        reach: landedNext(facts, run.taskId, run.ended!.id) ? "landed" : "cost",
        sentence: `${facts.names.who(run.actor)}'s run${on(facts, run.taskId)} declared itself done (“${(result.summary ?? "").slice(0, 100)}”) ${why.join(" and ")}`,
        eventIds: [
          ...inOrder(run)
            .filter((c) => c.writes && c.dispatched)
            .map((c) => c.dispatched!.id),
          run.ended!.id,
        ],
        runIds: [run.runId],
        taskIds: [run.taskId],
        agents: [run.actor],
      }),
    ];
  });
}

/**
 * The test runs that stand behind a submission: those of the runs on its task since the task's previous
 * verdict (or its start), in journal order, before the submission itself.
 */
function testsBehind(facts: Facts, taskId: string, submitted: JournalRecord): { tests: Call[]; lastWrite: number } {
  const history = facts.tasks.get(taskId) ?? [];
  const since = history.findLast((e) => e.kind === "TaskReviewed" && e.id < submitted.id)?.id ?? 0;
  const calls = [...facts.runs.values()]
    .filter((run) => run.taskId === taskId)
    .flatMap((run) => run.calls)
    .filter((c) => {
      const at = callEventId(c);
      return at > since && at < submitted.id;
    });
  const writes = calls.filter((c) => c.writes && c.dispatched).map(callEventId);
  return { tests: calls.filter((c) => c.tool === RUN_TESTS && c.returned.length > 0).sort((a, b) => callEventId(a) - callEventId(b)), lastWrite: Math.max(0, ...writes) };
}

/**
 * FM-3.2: an ACCEPT with no passing test run behind it: none of the work since the last verdict ran the
 * tests to exit 0 after its last edit. Judged only for tasks worked by runs in view: the journal does not
 * hold the words an outside agent submits as evidence.
 */
function unverifiedAcceptance(facts: Facts): Finding[] {
  const found: Finding[] = [];
  for (const [taskId, history] of facts.tasks) {
    if (![...facts.runs.values()].some((run) => run.taskId === taskId && run.calls.length > 0)) continue;
    for (const review of history) {
      if (review.kind !== "TaskReviewed" || payloadOf(review, "TaskReviewed").verdict !== "accept") continue;
      const submitted = history.findLast((e) => e.kind === "TaskSubmitted" && e.id < review.id);
      if (!submitted) continue;
      const failing = failingOf(payloadOf(submitted, "TaskSubmitted").tests);
      if (failing) {
        if (failing.length === 0 || payloadOf(review, "TaskReviewed").overruled) continue;
        found.push(
          finding("FM-3.2", {
            anchor: review.id,
            reach: "landed",
            sentence: `${facts.names.who(review.actor)} accepted ${facts.names.task(taskId)} from ${facts.names.who(submitted.actor)} with ${failing.join("; ")}`,
            eventIds: [submitted.id, review.id],
            runIds: [],
            taskIds: [taskId],
            agents: [review.actor, submitted.actor],
          }),
        );
        continue;
      }
      const { tests, lastWrite } = testsBehind(facts, taskId, submitted);
      if (tests.some((c) => exitCodeOf(c) === 0 && callEventId(c) > lastWrite)) continue;
      const last = tests.at(-1);
      const code = last ? exitCodeOf(last) : null;
      const saw = !last ? "no test run at all" : code === null ? "a test run that never finished" : `a test run that exited ${code}`;
      found.push(
        finding("FM-3.2", {
          anchor: review.id,
          reach: "landed",
          sentence: `${facts.names.who(review.actor)} accepted ${facts.names.task(taskId)} from ${facts.names.who(submitted.actor)} with ${saw} behind it`,
          eventIds: [...(last ? [last.returned.at(-1)!.id] : []), submitted.id, review.id],
          runIds: last ? [last.runId] : [],
          taskIds: [taskId],
          agents: [review.actor, submitted.actor],
        }),
      );
    }
  }
  return found;
}

/**
 * What a submission's delta says is wrong, in words ([] when its own tests pass and nothing broke), or null when
 * the exit code must judge it. A task that names no target tests is clean when it repaired a test red at the
 * baseline and broke nothing (another task's red test is not its failure); else nothing says which failures are
 * its own.
 */
export function failingOf(tests: SubmittedTests | undefined): string[] | null {
  if (!tests) return null;
  const { fixed, stillFailing, unseen, broken, repaired = [] } = tests.delta;
  if (fixed.length + stillFailing.length + unseen.length === 0) return tests.baseline && repaired.length > 0 && broken.length === 0 ? [] : null;
  return [
    ...(stillFailing.length ? [`target tests failing: ${stillFailing.join(", ")}`] : []),
    ...(unseen.length ? [`target tests not in the run: ${unseen.join(", ")}`] : []),
    ...(broken.length ? [`tests newly broken: ${broken.join(", ")}`] : []),
  ];
}

/** FM-3.3: the suite went red, deciding the flight, on a branch whose integrations were each accepted. */
function incorrectVerification(facts: Facts): Finding[] {
  return facts.events.flatMap((ran) => {
    if (ran.kind !== "SuiteRan") return [];
    const outcome = payloadOf(ran, "SuiteRan");
    if (outcome.passed || outcome.status !== "red" || outcome.exitCode === null) return [];
    const started = facts.events.findLast((e) => e.kind === "SuiteStarted" && e.id < ran.id && payloadOf(e, "SuiteStarted").flightId === outcome.flightId);
    const taskIds = started ? payloadOf(started, "SuiteStarted").taskIds : [];
    const accepted = taskIds.flatMap((taskId) => {
      const history = facts.tasks.get(taskId) ?? [];
      const integrated = history.findLast((e) => e.kind === "TaskIntegrated" && e.id < ran.id);
      const review = integrated && history.findLast((e) => e.kind === "TaskReviewed" && e.id < integrated.id && payloadOf(e, "TaskReviewed").verdict === "accept");
      return integrated && review ? [{ taskId, integrated, review }] : [];
    });
    if (accepted.length === 0) return [];
    const reviewers = uniq(accepted.map((a) => facts.names.who(a.review.actor)));
    return [
      finding("FM-3.3", {
        anchor: ran.id,
        reach: "landed",
        sentence: `the suite failed (exit code ${outcome.exitCode}) after ${accepted.map((a) => facts.names.task(a.taskId)).join(", ")} ${accepted.length === 1 ? "was" : "were"} accepted by ${reviewers.join(", ")} and integrated: the review passed what the suite did not`,
        eventIds: [...accepted.flatMap((a) => [a.review.id, a.integrated.id]), ...(started ? [started.id] : []), ran.id],
        runIds: [ran.runId],
        taskIds: [...accepted.map((a) => a.taskId), ran.taskId],
        agents: [...accepted.map((a) => a.review.actor), ran.actor],
      }),
    ];
  });
}

export function verificationFailures(facts: Facts): Finding[] {
  return [...prematureTermination(facts), ...unverifiedAcceptance(facts), ...incorrectVerification(facts)];
}
