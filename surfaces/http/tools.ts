// The MCP tools, each derived from an endpoint's declaration that has a `tool` face: the tool reads the endpoint's
// own body or query schema, its path params under the names the face gives them, and calls the endpoint's `run`
// with the same call a request would make. So a tool and its endpoint cannot drift: there is one of each rule.
import { z } from "zod";
import type { ToolContext, ToolDef } from "@/surfaces/mcp/tool";
import type { RouteSpec } from "./routes/route-spec";

function toolOf(spec: RouteSpec, routes: RouteSpec[]): ToolDef {
  const face = spec.tool!;
  const pathShape = (spec.params?.shape ?? {}) as Record<string, z.ZodType>;
  const argOf = (param: string) => face.args?.[param] ?? param;
  const argShape = Object.fromEntries(Object.entries(pathShape).map(([param, schema]) => [argOf(param), face.omitted?.[param] ? schema.optional() : schema]));
  return {
    name: face.name,
    description: face.description,
    rest: `${spec.method.toUpperCase()} ${spec.path.replace(/\{(\w+)\}/g, ":$1")}`,
    params: Object.keys(argShape).length > 0 ? z.strictObject(argShape) : undefined,
    input: spec.body ?? spec.query,
    output: face.output,
    annotations: face.hints,
    run: async (ctx: ToolContext, args: Record<string, unknown>, input: unknown) => {
      // The arguments were read with the path's own schemas; one left out takes the value the face gives it.
      const params = Object.fromEntries(Object.keys(pathShape).map((param) => [param, args[argOf(param)] ?? face.omitted?.[param]?.(ctx.caller)]));
      const { caller, signal, ...server } = ctx;
      const call = {
        ctx: server,
        caller,
        params,
        query: spec.query ? input : undefined,
        body: spec.body ? input : undefined,
        request: ctx.request,
        signal: signal ?? ctx.request.signal,
        routes,
      };
      const value = await spec.run!(call as never);
      return face.result ? face.result(value as never) : (value as object);
    },
  };
}

const derived = new WeakMap<RouteSpec[], ToolDef[]>();

/** Every tool the declarations give, in their order; made once per list of routes. */
export function toolsOf(routes: RouteSpec[]): ToolDef[] {
  let tools = derived.get(routes);
  if (!tools) {
    tools = routes.filter((spec) => spec.tool && spec.run).map((spec) => toolOf(spec, routes));
    derived.set(routes, tools);
  }
  return tools;
}
