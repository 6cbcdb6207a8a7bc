// The one router of /api, over throwaway declarations and over the real ones.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createApiRouter, apiPaths, matchApiPath } from "./router";
import { ROUTES } from "./routes";
import { endpoint, ok, type RouteSpec, TAGS } from "./routes/route-spec";

const declare = (method: RouteSpec["method"], path: string): RouteSpec =>
  endpoint({
    method,
    path,
    tag: TAGS.tasks,
    summary: path,
    access: "public",
    answers: ok(z.unknown()),
    refusals: [],
    run: async ({ request }) => ({ answered: `${method} ${path}`, url: new URL(request.url).pathname }),
  });

const routes = [
  declare("get", "/api/tasks"),
  declare("get", "/api/tasks/{id}"),
  declare("post", "/api/tasks/{id}/claim"),
  declare("post", "/api/tasks/claim-next"),
  declare("delete", "/api/tasks/{id}"),
];
const router = createApiRouter(routes);
const send = (method: string, path: string) => router(new Request(`http://localhost${path}`, { method }));

describe("the router", () => {
  const match = (path: string) => {
    const found = matchApiPath(apiPaths(routes), path);
    return found && { path: found.path.path, params: found.params };
  };

  it("prefers a static segment to a dynamic one, whatever the order of the declarations", () => {
    expect(match("/api/tasks/claim-next")).toEqual({ path: "/api/tasks/claim-next", params: {} });
    expect(match("/api/tasks/42")).toEqual({ path: "/api/tasks/{id}", params: { id: "42" } });
    expect(match("/api/tasks/42/claim")).toEqual({ path: "/api/tasks/{id}/claim", params: { id: "42" } });
  });

  it("decodes params, and matches no unknown or longer path", () => {
    expect(match("/api/tasks/%E2%9C%93%2Fx")?.params).toEqual({ id: "✓/x" });
    expect(match("/api/nope")).toBeNull();
    expect(match("/api/tasks/42/claim/more")).toBeNull();
    expect(match("/api")).toBeNull();
  });

  it("answers with the declaration's run, 404 for no path, 405 with Allow for an undeclared method", async () => {
    expect(await (await send("POST", "/api/tasks/7/claim")).json()).toEqual({ answered: "post /api/tasks/{id}/claim", url: "/api/tasks/7/claim" });
    const missing = await send("GET", "/api/nope");
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: "not_found" });
    const wrong = await send("PATCH", "/api/tasks/7");
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("DELETE, GET, HEAD, OPTIONS");
  });

  it("answers HEAD from GET and OPTIONS from the declared methods", async () => {
    expect((await send("HEAD", "/api/tasks")).status).toBe(200);
    const options = await send("OPTIONS", "/api/tasks/7/claim");
    expect(options.status).toBe(204);
    expect(options.headers.get("allow")).toBe("OPTIONS, POST");
  });

  it("refuses a path that does not decode before anything matches, and redirects a trailing slash", async () => {
    const bad = await send("GET", "/api/tasks/%FF");
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: "invalid" });
    const slash = await send("GET", "/api/tasks/?limit=2");
    expect(slash.status).toBe(308);
    expect(slash.headers.get("location")).toBe("/api/tasks?limit=2");
  });
});

describe("the app's declarations", () => {
  it("give every /api endpoint a run, and each is found by its own path", () => {
    const ordered = apiPaths(ROUTES);
    for (const spec of ROUTES.filter((r) => r.path.startsWith("/api/"))) {
      expect(spec.run, `${spec.method} ${spec.path}`).toBeTypeOf("function");
      const sample = spec.path.replace(/\{\w+\}/g, "x");
      expect(matchApiPath(ordered, sample)?.path.methods.get(spec.method.toUpperCase()), `${spec.method} ${spec.path}`).toBe(spec);
    }
  });

  it("declare each method of each path once", () => {
    const keys = ROUTES.map((r) => `${r.method} ${r.path}`);
    expect(keys.filter((k, i) => keys.indexOf(k) !== i)).toEqual([]);
  });
});
