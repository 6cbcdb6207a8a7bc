import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { discoverEndpoints } from "../test/api-catalog";
import { allowedMethods, type RouteModule } from "./api-router";
import { discoverApiRoutes, matchApiRoute, orderRoutes } from "./route-table";

const apiDir = fileURLToPath(new URL("../app/api", import.meta.url));

/** A throwaway app/api holding an empty route.ts in each of `folders`. */
function apiTree(folders: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), "quorum-routes-"));
  for (const folder of folders) {
    mkdirSync(join(dir, folder), { recursive: true });
    writeFileSync(join(dir, folder, "route.ts"), "");
  }
  return dir;
}

describe("the route table", () => {
  const dir = apiTree(["health", "tasks", "tasks/[id]", "tasks/[id]/claim", "tasks/claim-next", "files/[...path]", "docs/[[...slug]]", "(group)/grouped", "_lib/hidden"]);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const routes = orderRoutes(discoverApiRoutes(dir));
  const match = (path: string) => {
    const found = matchApiRoute(routes, path);
    return found && { pattern: found.route.pattern, params: found.params };
  };

  it("finds every route.ts, skipping private folders, and keeps route groups out of the URL", () => {
    expect(routes.map((r) => r.pattern).sort()).toEqual(
      [
        "/api/(group)/grouped",
        "/api/docs/[[...slug]]",
        "/api/files/[...path]",
        "/api/health",
        "/api/tasks",
        "/api/tasks/[id]",
        "/api/tasks/[id]/claim",
        "/api/tasks/claim-next",
      ].sort(),
    );
    expect(match("/api/grouped")?.pattern).toBe("/api/(group)/grouped");
    expect(match("/api/_lib/hidden")).toBeNull();
  });

  it("prefers a static segment to a dynamic one, and a dynamic one to a catch-all", () => {
    expect(match("/api/tasks/claim-next")).toEqual({ pattern: "/api/tasks/claim-next", params: {} });
    expect(match("/api/tasks/42")).toEqual({ pattern: "/api/tasks/[id]", params: { id: "42" } });
    expect(match("/api/tasks/42/claim")).toEqual({ pattern: "/api/tasks/[id]/claim", params: { id: "42" } });
  });

  it("hands a catch-all its segments as a list; an optional one matches nothing too", () => {
    expect(match("/api/files/a/b%20c")).toEqual({ pattern: "/api/files/[...path]", params: { path: ["a", "b c"] } });
    expect(match("/api/files")).toBeNull();
    expect(match("/api/docs")).toEqual({ pattern: "/api/docs/[[...slug]]", params: {} });
    expect(match("/api/docs/x")).toEqual({ pattern: "/api/docs/[[...slug]]", params: { slug: ["x"] } });
  });

  it("decodes params, and matches no unknown path, longer path or trailing slash", () => {
    expect(match("/api/tasks/%E2%9C%93%2Fx")?.params).toEqual({ id: "✓/x" });
    expect(match("/api/nope")).toBeNull();
    expect(match("/api/tasks/42/claim/more")).toBeNull();
    expect(match("/api/health/")).toBeNull();
    expect(match("/api")).toBeNull();
  });
});

describe("the app's routes", () => {
  it("each route answers the methods its file exports, and is found by its own pattern", async () => {
    const routes = discoverApiRoutes(apiDir);
    // The catalog the authorization matrix and the fuzzer walk is this table's (test/api-catalog.ts).
    const endpoints = await discoverEndpoints();
    for (const route of routes) {
      const module = (await import(pathToFileURL(route.file).href)) as RouteModule;
      const exported = endpoints.filter((e) => e.route === route.pattern).map((e) => e.method);
      expect(exported.length, route.pattern).toBeGreaterThan(0);
      for (const method of exported) expect(allowedMethods(module), route.pattern).toContain(method);
      // Each route is found by its own pattern (params spelled as any value).
      const sample = route.segments.map((s) => (s.kind === "static" ? s.value : "x")).join("/");
      expect(matchApiRoute(orderRoutes(routes), `/${sample}`)?.route.pattern).toBe(route.pattern);
    }
  });
});
