// Answers one request with one endpoint's declaration: the caller first (before anything is looked up),
// then the path params, query and body each read with the declaration's own schema, then its `run`.
import { fail, QuorumError } from "@/domain/errors";
import { MAX_BODY_BYTES } from "@/domain/request-shape";
import type { Principal } from "@/domain/principal";
import { requireCaller } from "@/domain/principals/authenticate";
import { appContext, credentialsOf, json, readBody, readQuery, restRefusal } from "./handler";
import type { RouteSpec } from "./routes/route-spec";

/** The status a declaration answers with when its run returns a body: its first success. */
function successOf(spec: RouteSpec): number {
  return spec.answers.find((a) => a.status < 300)?.status ?? 200;
}

/** A path whose params fail the declaration's schema names nothing (docs/DESIGN.md): 404, saying which param and why. */
function readParams(spec: RouteSpec, raw: Record<string, string>): unknown {
  if (!spec.params) return {};
  const parsed = spec.params.safeParse(raw);
  if (parsed.success) return parsed.data;
  throw fail.notFound("request", `nothing at this path: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
}

export async function answer(spec: RouteSpec, request: Request, rawParams: Record<string, string>, routes: RouteSpec[]): Promise<Response> {
  // Only the paths beside /api (the agent card, /metrics) are declared without a run, and the router serves /api alone.
  if (!spec.run) return json({ error: "not_found", message: `${spec.path} is not served here` }, 404);
  const ctx = appContext();
  // MCP and A2A read their own bodies and word their own refusals (JSON-RPC), their keys included.
  if (spec.access === "bearer")
    return (await spec.run({ ctx, caller: null, params: {}, query: undefined, body: undefined, request, signal: request.signal, routes } as never)) as Response;
  try {
    if (Number(request.headers.get("content-length")) > MAX_BODY_BYTES) throw fail.tooLarge("request", MAX_BODY_BYTES);
    const caller: Principal | null = spec.access === "principal" ? await requireCaller(ctx.db, credentialsOf(request), ctx.clock) : null;
    const params = readParams(spec, rawParams);
    const query = spec.query ? readQuery(request, spec.query) : undefined;
    const body = spec.body ? await readBody(request, spec.body) : undefined;
    const result = await spec.run({ ctx, caller, params, query, body, request, signal: request.signal, routes } as never);
    if (result instanceof Response) return result;
    const status = result === null && spec.answers.some((a) => a.status === 204) ? 204 : successOf(spec);
    if (status === 204) return new Response(null, { status, headers: { "Cache-Control": "no-store" } });
    return json(result, status);
  } catch (error) {
    if (error instanceof QuorumError) return json(restRefusal(error), error.status);
    console.error(`unexpected error answering ${spec.method.toUpperCase()} ${spec.path}`, error);
    return json({ error: "internal", message: "something went wrong on our side; the request changed nothing" }, 500);
  }
}
