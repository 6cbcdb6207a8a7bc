// What reading a request and writing an answer share across the API: the body and query read with their zod
// schemas, a refusal's JSON body and status, and a handler wrapper for the page routes beside /api (/metrics).
import type { z } from "zod";
import { serverContext, type ServerContext } from "@/domain/context";
import { fail, type NextStep, QuorumError } from "@/domain/errors";
import { readCapped } from "@/domain/request-body";
import { MAX_BODY_BYTES } from "@/domain/request-shape";
import { unstorableText } from "@/domain/storable-text";

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

function invalid(error: z.ZodError, what: string): QuorumError {
  return fail.invalid("request", `invalid ${what}: ${error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ")}`, {
    issues: error.issues,
  });
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
