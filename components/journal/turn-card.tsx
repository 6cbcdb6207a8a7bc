// One turn of a run: the mail it delivered, the model's response, the tokens, each tool call and its observations.
import { PerformativeBadge } from "../badges";
import { formatTokens } from "../bill/format";
import { EventLink, JsonBlock } from "./json-block";
import type { Observation, TimelineTurn } from "./types";
import { RelativeTime } from "../time";

function ObservationView({ observation, expanded }: { observation: Observation | null; expanded: boolean }) {
  if (!observation) return <span className="text-xs text-amber-700 dark:text-amber-400">no observation recorded (interrupted)</span>;
  if (observation.is_error) {
    return (
      <div className="text-xs">
        <span className="rounded bg-red-100 px-1.5 py-0.5 font-semibold text-red-900 dark:bg-red-950 dark:text-red-200">error{observation.transient ? " (transient)" : ""}</span>{" "}
        {observation.reason} <span className="text-neutral-500">— hint: {observation.recovery_hint}</span>
      </div>
    );
  }
  return <JsonBlock value={observation.result} label="result" open={expanded} />;
}

/** `expanded`: arguments and results open (stepping through a replay). */
export function TurnCard({ turn, expanded = false }: { turn: TimelineTurn; expanded?: boolean }) {
  return (
    <article id={`event-${turn.calledEventId}`} className="space-y-2 rounded-lg border border-neutral-200 p-3 dark:border-neutral-800" data-testid="timeline-turn">
      <header className="flex flex-wrap items-baseline gap-x-3 text-sm">
        <h3 className="font-semibold">Turn {turn.turn}</h3>
        <RelativeTime iso={turn.t} className="text-xs text-neutral-500" />
        {turn.context && (
          <span className="text-xs text-neutral-500">
            context {turn.context.messages} messages, ~{formatTokens(turn.context.estimatedTokens)} tokens
            {turn.context.droppedSteps ? `, ${turn.context.droppedSteps} old steps dropped` : ""}
          </span>
        )}
        {turn.debit && (
          <span className="ml-auto text-xs tabular-nums" title={`${turn.debit.model}${turn.debit.estimated ? ", estimated" : ""}`}>
            {formatTokens(turn.debit.amount)} tokens ({formatTokens(turn.debit.inputTokens)} in{turn.debit.cachedTokens ? `, ${formatTokens(turn.debit.cachedTokens)} cached` : ""},{" "}
            {formatTokens(turn.debit.outputTokens)} out)
          </span>
        )}
        <EventLink id={turn.calledEventId} />
      </header>
      {turn.mail.length > 0 && (
        <ul className="space-y-1 rounded bg-neutral-50 p-2 text-xs dark:bg-neutral-900" aria-label="Mail delivered">
          {turn.mail.map((m) => (
            <li key={m.messageId}>
              ✉ <strong>{m.fromName ?? m.from}</strong> {m.performative && <PerformativeBadge performative={m.performative} />}{" "}
              <span className="whitespace-pre-wrap">{m.body}</span>
            </li>
          ))}
        </ul>
      )}
      {turn.failed && <p className="text-sm text-red-700 dark:text-red-400">The model call failed: {turn.failed}</p>}
      {turn.response?.text && <p className="text-sm whitespace-pre-wrap">{turn.response.text}</p>}
      {!turn.response && !turn.failed && <p className="text-xs text-neutral-500">Waiting for the model&apos;s response…</p>}
      {turn.calls.map((call) => (
        <div key={call.callId} className="space-y-1 border-l-2 border-accent-500 pl-3">
          <p className="text-sm">
            <span className="font-mono font-medium">{call.tool}</span>
            {call.writes && <span className="ml-2 text-xs text-neutral-500">writes {call.writes}</span>}
          </p>
          <JsonBlock value={call.args ?? call.arguments} label="arguments" open={expanded} />
          {call.attempts.length === 0 && <p className="text-xs text-neutral-500">not dispatched yet</p>}
          {call.attempts.map((a) => (
            <div key={a.attempt} className="space-y-1">
              {(call.attempts.length > 1 || a.retriedAfter) && (
                <p className="text-xs text-neutral-500">
                  attempt {a.attempt}
                  {a.retriedAfter && ` (retried after: ${a.retriedAfter})`}
                </p>
              )}
              <ObservationView observation={a.observation} expanded={expanded} />
            </div>
          ))}
        </div>
      ))}
    </article>
  );
}
