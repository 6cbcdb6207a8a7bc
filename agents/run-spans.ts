// A run's drives as OpenTelemetry spans, in the GenAI semantic conventions' words: each drive an
// `invoke_agent {agent}` span (INTERNAL), each model call a `chat {model}` child (CLIENT), each tool call an
// `execute_tool {tool}` child (INTERNAL). The conversation (`gen_ai.conversation.id`) is the flight the run's task
// belongs to, else the task, else the run; the provider and model come from the client (agents/model/: only it
// knows a vendor). Failures set the span's status to ERROR with an `error.type`. Loaded only when tracing is on
// (bin/ installs it: agents/run-tracing.ts); span contents carry no prompt, response or tool output.
import { type Attributes, ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import type { Db } from "../db/client";
import { flightOfTask } from "../domain/flights/place";
import { readPrincipal } from "../domain/principals/list-principals";
import type { ModelResponse, Observation, RunResult } from "../domain/runs/run-events";
import { inTrace } from "../domain/telemetry/trace-ids";
import { ModelError } from "./model/model-client";
import type { DriveTrace, RunTracer, TracedRun } from "./run-tracing";

const tracer = () => trace.getTracer("quorum.agents");

/** A low-cardinality class of a model call's failure, as `error.type` wants it: the HTTP status, else the error's kind. */
function errorTypeOf(error: unknown): string {
  if (error instanceof ModelError) return error.status !== null ? String(error.status) : error.permanent ? "unreadable_response" : "no_response";
  return error instanceof Error ? error.name : "_OTHER";
}

function failed(span: Span, type: string, message: string): void {
  span.setAttribute("error.type", type);
  span.setStatus({ code: SpanStatusCode.ERROR, message });
}

async function conversationOf(db: Db, run: TracedRun): Promise<string> {
  if (!run.taskId) return run.runId;
  return (await flightOfTask(db, run.taskId))?.place.flightId ?? run.taskId;
}

/** The run tracer `quorum worker` and `quorum run` install once tracing has started. */
export function otelRunTracer(): RunTracer {
  return {
    async begin(db: Db, run: TracedRun): Promise<DriveTrace> {
      const [conversation, agentName] = await Promise.all([conversationOf(db, run), run.agentName ?? readPrincipal(db, run.agentId).then((p) => p.name)]);
      const { provider, model, server } = run.client.telemetry;
      const shared: Attributes = { "gen_ai.provider.name": provider, "gen_ai.conversation.id": conversation };
      const drive = inTrace(run.traceId, () =>
        tracer().startSpan(
          `invoke_agent ${agentName}`,
          {
            kind: SpanKind.INTERNAL,
            attributes: {
              ...shared,
              "gen_ai.operation.name": "invoke_agent",
              "gen_ai.agent.name": agentName,
              "gen_ai.agent.id": run.agentId,
              "gen_ai.request.model": model,
              "quorum.run.id": run.runId,
              ...(run.taskId ? { "quorum.task.id": run.taskId } : {}),
              ...(run.traceId ? { "quorum.run.resumed": true } : {}),
            },
          },
          // A drive is a root: the worker's loop starts it, not a request.
          ROOT_CONTEXT,
        ),
      );
      const parent = trace.setSpan(ROOT_CONTEXT, drive);
      const usage = { input: 0, output: 0 };
      return {
        traceId: drive.spanContext().traceId,
        async chat(call, onRetry): Promise<ModelResponse> {
          const span = tracer().startSpan(
            `chat ${model}`,
            {
              kind: SpanKind.CLIENT,
              attributes: {
                ...shared,
                "gen_ai.operation.name": "chat",
                "gen_ai.request.model": model,
                ...(server ? { "server.address": server.address, "server.port": server.port } : {}),
              },
            },
            parent,
          );
          try {
            const response = await call({
              onRetry: async (notice) => {
                span.addEvent("quorum.model.retry", { attempt: notice.attempt, "http.response.status_code": notice.status ?? 0, "quorum.retry.delay_ms": notice.delayMs });
                await onRetry(notice);
              },
            });
            const { inputTokens, outputTokens, cachedTokens, estimated } = response.usage;
            usage.input += inputTokens;
            usage.output += outputTokens;
            span.setAttributes({
              "gen_ai.response.model": response.model,
              "gen_ai.usage.input_tokens": inputTokens,
              "gen_ai.usage.output_tokens": outputTokens,
              "gen_ai.usage.cache_read.input_tokens": cachedTokens,
              "quorum.usage.estimated": estimated,
            });
            return response;
          } catch (error) {
            failed(span, errorTypeOf(error), error instanceof Error ? error.message : String(error));
            throw error;
          } finally {
            span.end();
          }
        },
        async tool(call, attempt, execute): Promise<Observation> {
          const span = tracer().startSpan(
            `execute_tool ${call.name}`,
            {
              kind: SpanKind.INTERNAL,
              attributes: {
                ...shared,
                "gen_ai.operation.name": "execute_tool",
                "gen_ai.agent.name": agentName,
                "gen_ai.tool.name": call.name,
                "gen_ai.tool.call.id": call.id,
                "gen_ai.tool.type": "function",
                "quorum.tool.attempt": attempt,
              },
            },
            parent,
          );
          try {
            const observation = await execute();
            // A tool never throws to the loop: its failure is an observation the model reads.
            if (observation.is_error) failed(span, observation.transient ? "tool_transient_error" : "tool_error", observation.reason);
            return observation;
          } finally {
            span.end();
          }
        },
        end(outcome: { result: RunResult } | { error: unknown }) {
          drive.setAttributes({ "gen_ai.usage.input_tokens": usage.input, "gen_ai.usage.output_tokens": usage.output });
          if ("error" in outcome) {
            if (outcome.error instanceof Error) drive.recordException(outcome.error);
            failed(drive, errorTypeOf(outcome.error), outcome.error instanceof Error ? outcome.error.message : String(outcome.error));
          } else {
            drive.setAttribute("quorum.run.outcome", outcome.result.status);
          }
          drive.end();
        },
      };
    },
  };
}
