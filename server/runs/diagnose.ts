// diagnose(events): names the failure signatures a journal shows, one finding per instance, nothing
// for a clean run. Pure: the same events always give the same findings.
import { payloadOf } from "../journal/payloads";
import type { JournalRecord } from "../journal/load";

export type Signature = "duplicate_work" | "unanswered_request" | "done_without_evidence" | "transient_error_absorbed";

export interface Finding {
  signature: Signature;
  summary: string;
  runIds: string[];
  /** Principal ids involved. */
  agents: string[];
  /** The events that show it, in journal order. */
  eventIds: number[];
}

const uniq = <T>(values: T[]) => [...new Set(values)];
const who = (e: JournalRecord) => e.actorName ?? e.actor ?? "someone";

/** Two or more runs wrote the same artefact: the work was split badly or done twice. */
function duplicateWork(events: readonly JournalRecord[]): Finding[] {
  const byArtefact = new Map<string, JournalRecord[]>();
  for (const e of events) {
    const writes = e.kind === "ToolDispatched" ? payloadOf(e, "ToolDispatched").writes : null;
    if (writes) byArtefact.set(writes, [...(byArtefact.get(writes) ?? []), e]);
  }
  return [...byArtefact].flatMap(([artefact, writes]) => {
    const runIds = uniq(writes.map((e) => e.runId ?? `actor:${e.actor}`));
    if (runIds.length < 2) return [];
    const names = uniq(writes.map(who));
    return [
      {
        signature: "duplicate_work" as const,
        summary: `${runIds.length} runs (${names.join(", ")}) wrote ${artefact}`,
        runIds: uniq(writes.map((e) => e.runId).filter((r): r is string => r !== null)),
        agents: uniq(writes.map((e) => e.actor).filter((a): a is string => a !== null)),
        eventIds: writes.map((e) => e.id),
      },
    ];
  });
}

/** Who a delivery reached: the relay lists recipients when it posts, or names one when a digest flushes. */
function deliveredTo(e: JournalRecord, messageId: number): string[] {
  const d = payloadOf(e, "MessageDelivered");
  if (d.via === "inbox") return d.messageId === messageId ? (d.recipients ?? []) : [];
  return d.messageIds?.includes(messageId) ? [d.recipient ?? e.actor].filter((r): r is string => Boolean(r)) : [];
}

/** A REQUEST reached someone who neither answered on its thread (or to its sender) nor started a run for it. */
function unansweredRequests(events: readonly JournalRecord[]): Finding[] {
  const findings: Finding[] = [];
  for (const sent of events) {
    if (sent.kind !== "MessageSent") continue;
    const request = payloadOf(sent, "MessageSent");
    if (request.performative !== "REQUEST") continue;
    const deliveries = events.filter((e) => e.kind === "MessageDelivered" && e.id > sent.id && deliveredTo(e, request.messageId).length);
    const reached = uniq(deliveries.flatMap((e) => deliveredTo(e, request.messageId))).filter((r) => !request.to || r === request.to);
    if (reached.length === 0) continue;
    const answered = events.some((e) => {
      if (e.id <= sent.id || !e.actor || !reached.includes(e.actor)) return false;
      if (e.kind === "MessageSent") return (sent.taskId !== null && e.taskId === sent.taskId) || payloadOf(e, "MessageSent").to === sent.actor;
      if (e.kind === "RunStarted") return (sent.taskId !== null && e.taskId === sent.taskId) || payloadOf(e, "RunStarted").requestId === request.messageId;
      return false;
    });
    if (answered) continue;
    findings.push({
      signature: "unanswered_request",
      summary: `a REQUEST from ${who(sent)} (message ${request.messageId}) was delivered and got neither a reply nor a run`,
      runIds: [],
      agents: uniq([sent.actor, ...reached].filter((a): a is string => a !== null)),
      eventIds: [sent.id, ...deliveries.map((e) => e.id)],
    });
  }
  return findings;
}

/** A run declared itself done and showed nothing for it. */
function doneWithoutEvidence(events: readonly JournalRecord[]): Finding[] {
  return events.flatMap((e) => {
    const result = e.kind === "AgentFinished" ? payloadOf(e, "AgentFinished").result : null;
    if (result?.status !== "done" || result.evidence.some((item) => item.trim() !== "")) return [];
    return [
      {
        signature: "done_without_evidence" as const,
        summary: `${who(e)} finished run ${e.runId} as done ("${result.summary}") without evidence`,
        runIds: e.runId ? [e.runId] : [],
        agents: e.actor ? [e.actor] : [],
        eventIds: [e.id],
      },
    ];
  });
}

/** A tool failed transiently and the run went on as if nothing happened: the flake is hidden, not fixed. */
function transientErrorsAbsorbed(events: readonly JournalRecord[]): Finding[] {
  const findings: Finding[] = [];
  const seen = new Set<string>();
  for (const e of events) {
    if (e.kind !== "ToolReturned") continue;
    const { tool, observation } = payloadOf(e, "ToolReturned");
    const key = `${e.runId}\u0000${tool}`;
    if (!observation.is_error || !observation.transient || seen.has(key)) continue;
    const later = events.filter((x) => x.kind === "ToolReturned" && x.id > e.id && x.runId === e.runId && payloadOf(x, "ToolReturned").tool === tool);
    const recovered = later.find((x) => !payloadOf(x, "ToolReturned").observation.is_error);
    if (!recovered) continue;
    seen.add(key);
    const failures = [e, ...later.filter((x) => x.id < recovered.id)];
    const reason = observation.reason;
    findings.push({
      signature: "transient_error_absorbed",
      summary: `${tool} failed transiently in run ${e.runId} (${reason}) ${failures.length} time(s), then succeeded`,
      runIds: e.runId ? [e.runId] : [],
      agents: e.actor ? [e.actor] : [],
      eventIds: [...failures, recovered].map((x) => x.id),
    });
  }
  return findings;
}

export function diagnose(events: readonly JournalRecord[]): Finding[] {
  return [...duplicateWork(events), ...unansweredRequests(events), ...doneWithoutEvidence(events), ...transientErrorsAbsorbed(events)];
}
