// The glue every route handler shares: parse, resolve the caller, map refusals to statuses.
import type { z } from "zod";
import { serverContext, type ServerContext } from "@/server/context";
import { fail, type NextStep, QuorumError } from "@/server/errors";
import { MAX_BODY_BYTES, pathIssues, pathMessage } from "@/server/request-shape";
import { authenticate, requireCaller } from "@/server/principals/authenticate";
import { unstorableText } from "@/server/storable-text";
import type { Principal } from "@/server/principal";

export type AppContext = ServerContext;

export function appContext(): AppContext {
  return serverContext();
}

export function json(body: unknown, status = 200): Response {
  return Response.json(body, { status, headers: { "Cache-Control": "no-store" } });
}

export function credentialsOf(req: Request) {
  return {
    method: req.method,
    authorization: req.headers.get("authorization"),
    cookie: req.headers.get("cookie"),
    contentType: req.headers.get("content-type"),
    origin: req.headers.get("origin"),
    host: req.headers.get("host"),
  };
}

/**
 * What every request must be before anything reads it: a path whose segments (the route's params)
 * decode to short, storable text, and no declared body over the cap. Every route that takes params
 * or a body resolves its caller first, so callerOf/optionalCallerOf run this check for all of them.
 */
function checkRequest(req: Request): void {
  const issues = pathIssues(new URL(req.url).pathname);
  if (issues.length) throw fail.invalid("request", pathMessage(issues), { issues });
  if (Number(req.headers.get("content-length")) > MAX_BODY_BYTES) throw fail.tooLarge("request", MAX_BODY_BYTES);
}

export async function callerOf(req: Request, ctx: AppContext): Promise<Principal> {
  checkRequest(req);
  return requireCaller(ctx.db, credentialsOf(req), ctx.clock);
}

export async function optionalCallerOf(req: Request, ctx: AppContext): Promise<Principal | null> {
  checkRequest(req);
  return authenticate(ctx.db, credentialsOf(req), ctx.clock);
}

function invalid(error: z.ZodError, what: string): QuorumError {
  return fail.invalid("request", `invalid ${what}: ${error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ")}`, {
    issues: error.issues,
  });
}

/**
 * The body as text, read chunk by chunk: past `limit` bytes the read stops and the request is refused,
 * so a 100 MB upload costs the server at most `limit` bytes of memory. A declared Content-Length over
 * the limit is refused before a byte is read.
 */
export async function readCapped(req: Request, limit = MAX_BODY_BYTES): Promise<string> {
  if (Number(req.headers.get("content-length")) > limit) throw fail.tooLarge("request", limit);
  if (!req.body) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > limit) {
      // Stop pulling: the rest of the upload is never buffered (the server drains or closes the socket).
      void reader.cancel().catch(() => {});
      throw fail.tooLarge("request", limit);
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

export async function readBody<S extends z.ZodType>(req: Request, schema: S): Promise<z.infer<S>> {
  const text = await readCapped(req, MAX_BODY_BYTES);
  let value: unknown;
  try {
    value = text.trim() === "" ? {} : JSON.parse(text);
  } catch (error) {
    throw fail.invalid("request", "the body is not valid JSON", undefined, error);
  }
  const unstorable = unstorableText(value);
  if (unstorable.length) throw fail.invalid("request", `invalid body: ${unstorable[0].path.join(".") || "(root)"}: ${unstorable[0].message}`, { issues: unstorable });
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw invalid(parsed.error, "body");
  return parsed.data;
}

export function readQuery<S extends z.ZodType>(req: Request, schema: S): z.infer<S> {
  const params = Object.fromEntries(new URL(req.url).searchParams);
  const unstorable = unstorableText(params);
  if (unstorable.length) throw fail.invalid("request", `invalid query: ${unstorable[0].path.join(".")}: ${unstorable[0].message}`, { issues: unstorable });
  const parsed = schema.safeParse(params);
  if (!parsed.success) throw invalid(parsed.error, "query");
  return parsed.data;
}

/** A refusal's next step in REST's words: the route to call. */
function restStep(step: NextStep): string {
  const room = encodeURIComponent(step.room);
  switch (step.action) {
    case "ack":
      return `ack with POST /api/rooms/${room}/cursor {"seq": ${step.seq}}`;
    case "retry_with_hold_token":
      return `repeat POST /api/rooms/${room}/messages with "holdToken" from this refusal`;
  }
}

/** A refusal's JSON body over REST: the server's body, plus its hint worded as routes. */
export function restRefusal(error: QuorumError): Record<string, unknown> {
  const body = error.toBody();
  return error.hint ? { ...body, hint: error.hint.map(restStep).join(", or ") } : body;
}

/** Runs a handler; a QuorumError becomes its status and JSON body, anything else a logged 500. */
export async function handle(run: (ctx: AppContext) => Promise<Response>): Promise<Response> {
  try {
    return await run(appContext());
  } catch (error) {
    if (error instanceof QuorumError) return json(restRefusal(error), error.status);
    console.error("unexpected error in a route handler", error);
    return json({ error: "internal", message: "something went wrong on our side; the request changed nothing" }, 500);
  }
}
