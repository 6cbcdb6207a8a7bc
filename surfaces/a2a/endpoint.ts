// The JSON-RPC binding of A2A v1.0 (POST /api/a2a): one request of one authenticated caller, dispatched by the
// SDK's JsonRpcTransportHandler to Quorum's handler (./handler.ts). A unary method answers JSON; a streaming one
// (SendStreamingMessage, SubscribeToTask) answers Server-Sent Events, each a JSON-RPC response, with a comment
// every 15 s so proxies keep the connection, ending when the task settles or the client goes.
import { type AgentCard, formatSSEErrorEvent, formatSSEEvent, SSE_HEADERS } from "@a2a-js/sdk";
import { JsonRpcTransportHandler, ServerCallContext, validateVersion } from "@a2a-js/sdk/server";
import type { ServerContext } from "../../domain/context";
import { readTeamStatus } from "../../domain/flights/team-status";
import type { Principal } from "../../domain/principal";
import { unstorableText } from "../../domain/storable-text";
import { agentCard } from "./card";
import { jsonRpcErrorOf } from "./errors";
import { QuorumA2AHandler } from "./handler";
import type { SkillDef } from "./skill";

const KEEPALIVE_MS = 15_000;
const NO_STORE = { "Cache-Control": "no-store" };

type Id = string | number | null;

/** The card as it is now (the team's state is in the team skill's words). */
export async function currentCard(ctx: Pick<ServerContext, "db">, hubUrl: string, skills: SkillDef[]): Promise<AgentCard> {
  return agentCard(hubUrl, await readTeamStatus(ctx.db), skills);
}

function idOf(body: unknown): Id {
  const id = (body as { id?: unknown } | null)?.id;
  return typeof id === "string" || (typeof id === "number" && Number.isInteger(id)) ? id : null;
}

const answer = (id: Id, error: ReturnType<typeof jsonRpcErrorOf>) => Response.json({ jsonrpc: "2.0", id, error }, { headers: NO_STORE });

export interface A2ARequest {
  /** The body as sent (already within the 1 MiB cap). */
  text: string;
  /** The A2A-Version header; absent means 0.3 (A2A §3.6), which this hub does not speak. */
  version: string | null;
  /** The HTTP request it came on (its signal aborts when the client goes). */
  http: Request;
  skills: SkillDef[];
}

/** Answers one JSON-RPC request of `caller`. */
export async function answerA2A(ctx: ServerContext, caller: Principal, request: A2ARequest, hubUrl: string): Promise<Response> {
  let body: unknown;
  try {
    body = JSON.parse(request.text);
  } catch {
    return answer(null, { code: -32700, message: "the body is not valid JSON" });
  }
  const unstorable = unstorableText(body);
  if (unstorable.length) return answer(idOf(body), { code: -32602, message: `invalid params: ${unstorable[0].path.join(".") || "(root)"}: ${unstorable[0].message}` });
  const card = await currentCard(ctx, hubUrl, request.skills);
  const context = new ServerCallContext({ requestedVersion: request.version ?? undefined });
  try {
    validateVersion(context.requestedVersion, card, "JSONRPC");
  } catch (error) {
    return answer(idOf(body), jsonRpcErrorOf(error));
  }
  const handler = new QuorumA2AHandler(ctx, caller, { hubUrl, card, skills: request.skills, request: request.http });
  const result = await new JsonRpcTransportHandler(handler).handle(body as Record<string, unknown>, context);
  if (!(Symbol.asyncIterator in result)) {
    // The SDK words an error it did not make as an internal one: a refusal of ours is said as A2A says it.
    if (result.error !== undefined && handler.refusals.error) result.error = jsonRpcErrorOf(handler.refusals.error, handler.refusals.as);
    return Response.json(result, { headers: NO_STORE });
  }
  const events = result[Symbol.asyncIterator]();
  let first: IteratorResult<unknown>;
  try {
    first = await events.next();
  } catch (error) {
    // Refused before anything streamed (no such task, a bad message): one JSON answer, as for a unary method.
    return answer(idOf(body), jsonRpcErrorOf(error));
  }
  return new Response(sseOf(first, events, idOf(body), request.http.signal), { headers: { ...SSE_HEADERS, ...NO_STORE } });
}

function sseOf(first: IteratorResult<unknown>, events: AsyncIterator<unknown>, id: Id, signal: AbortSignal): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let keepalive: ReturnType<typeof setInterval> | undefined;
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      const write = (text: string) => {
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          // the client went away
        }
      };
      keepalive = setInterval(() => write(": keepalive\n\n"), KEEPALIVE_MS);
      try {
        for (let next = first; !next.done && !signal.aborted; next = await events.next()) write(formatSSEEvent(next.value));
      } catch (error) {
        write(formatSSEErrorEvent({ jsonrpc: "2.0", id, error: jsonRpcErrorOf(error) }));
      } finally {
        clearInterval(keepalive);
        try {
          controller.close();
        } catch {
          // already closed or cancelled
        }
      }
    },
    async cancel() {
      clearInterval(keepalive);
      await events.return?.(undefined);
    },
  });
}
