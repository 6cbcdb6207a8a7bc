/**
 * Layer rules of docs/ARCHITECTURE.md: the surfaces (`surfaces/http`, `surfaces/mcp`, `surfaces/a2a`, `surfaces/web`), the
 * pages (`app`) and the agents (`agents`) → `domain` → `db`; `agents` may import `db` types only; `components` (the UI) are
 * fed by `app` and import `domain` view types only. `npm run layers` checks them; a violation names its rule. It then checks
 * that the folders of domain/ and of components/ import each other one way only, in a pass of its own over production files
 * (.dependency-cruiser.folders.cjs).
 *
 * "Test code" below: `*.test.ts(x)` / `*.spec.ts(x)` beside the code, and everything under test/, e2e/, bench/, chaos/.
 * `tsPreCompilationDeps: true` keeps `import type` edges in the graph, marked "type-only", so rules can allow them.
 */

const TEST_FILE = "\\.(test|spec)\\.tsx?$";
const TEST_CODE = ["^(test|e2e|bench|chaos)/", TEST_FILE];
const OUR_FOLDERS = "^(app|components|domain|surfaces|db|agents|bin|client|test|e2e|bench|chaos)/";

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "domain-is-the-core",
      severity: "error",
      comment:
        "domain/ holds every rule and is called by the surfaces, app/, agents/ and bin/; it never imports them (nor components/). " +
        "Move the shared piece into domain/ (or pass it in as an argument, as the A2A push renderer is) instead of reaching up.",
      from: { path: "^domain/", pathNot: TEST_FILE },
      to: { path: "^(app|components|agents|surfaces|bin)/" },
    },
    {
      name: "domain-tests-enter-by-the-api",
      severity: "error",
      comment:
        "A test beside domain/ code may call the HTTP API (surfaces/http, or a route file under app/) to test the mapping, " +
        "but nothing else of app/, components/, agents/, the other surfaces or bin/.",
      from: { path: `^domain/.*${TEST_FILE}` },
      to: { path: "^(app|components|agents|bin|surfaces/(mcp|a2a|web))/", pathNot: "^app/.*/route\\.ts$" },
    },
    {
      name: "db-imports-nothing-of-ours",
      severity: "error",
      comment: "db/ (schema, migrations, connection, embedded Postgres) is the bottom layer: it imports npm packages and other db/ modules only.",
      from: { path: "^db/" },
      to: { path: OUR_FOLDERS, pathNot: "^db/" },
    },
    {
      name: "bundles-never-reach-the-installer",
      severity: "error",
      comment:
        "Next bundles domain/, app/ and surfaces/; db/embedded.ts, db/migrate.ts and db/install-functions.ts read the folders beside them " +
        "(migrations, function files), which a bundle cannot trace, so `next build` fails. Take QUORUM_HOME from db/home.ts; migrate from bin/.",
      from: { path: "^(domain|app|surfaces)/", pathNot: TEST_FILE },
      to: { path: "^db/(embedded|embedded-roles|migrate|install-functions)\\.ts$" },
    },
    {
      name: "components-never-reach-data",
      severity: "error",
      comment: "components/ are fed by app/ (pages, /api over HTTP); they never import the database, the agent runtime, a surface or the CLI.",
      from: { path: "^components/" },
      to: { path: "^(db|agents|surfaces|bin)/" },
    },
    {
      name: "components-see-domain-types-only",
      severity: "error",
      comment:
        "components/ may name domain/ view types (`import type { … }` or `import { type … }`), never import domain/ code: " +
        "a value import would pull domain code (and its database client) into the client bundle.",
      from: { path: "^components/" },
      to: { path: "^domain/", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "components-root-is-shared",
      severity: "error",
      comment:
        "The files at the root of components/ (the API client, query keys, live updates, shared widgets and types) serve every page's folder, so they import none of them: " +
        "what the root needs from a page belongs at the root, and the frame that composes the pages lives in components/shell/.",
      from: { path: "^components/[^/]+$", pathNot: TEST_FILE },
      to: { path: "^components/[^/]+/" },
    },
    {
      name: "agents-see-db-types-only",
      severity: "error",
      comment:
        "The agent runtime acts through domain/ functions so that no gate can be bypassed; it may name db/ types (`import type`) but not query tables itself. " +
        "Tests beside agents/ code may use db/ to set up and inspect state.",
      from: { path: "^agents/", pathNot: TEST_FILE },
      to: { path: "^db/", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "app-never-reaches-db",
      severity: "error",
      comment: "Pages get the database from domain/ (ServerContext); app/ imports nothing from db/, types included.",
      from: { path: "^app/" },
      to: { path: "^db/" },
    },
    {
      name: "surfaces-call-the-domain",
      severity: "error",
      comment:
        "A surface (HTTP, MCP, A2A, the web server) speaks a protocol and calls domain/ functions; it never imports the pages, the UI " +
        "or the CLI. Tests beside it may use db/ to set up state.",
      from: { path: "^surfaces/", pathNot: TEST_FILE },
      to: { path: "^(app|components|bin)/" },
    },
    {
      name: "surfaces-reach-agents-for-runs-only",
      severity: "error",
      comment:
        "Of the agent runtime, the HTTP API calls the replay and the fork of a run (agents/replay.ts, agents/fork-lines.ts) and nothing else; " + "the other surfaces none of it.",
      from: { path: "^surfaces/", pathNot: TEST_FILE },
      to: { path: "^agents/", pathNot: "^agents/(replay|fork-lines)\\.ts$" },
    },
    {
      name: "only-http-reaches-agents",
      severity: "error",
      comment: "MCP, A2A and the web server never reach the agent runtime.",
      from: { path: "^surfaces/(mcp|a2a|web)/", pathNot: TEST_FILE },
      to: { path: "^agents/" },
    },
    {
      name: "surfaces-see-db-types-only",
      severity: "error",
      comment: "A surface names db/ types (`import type`, an Executor it hands to the domain) but never queries tables itself: that is domain/'s.",
      from: { path: "^surfaces/", pathNot: TEST_FILE },
      to: { path: "^db/", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "surfaces-side-by-side",
      severity: "error",
      comment:
        "MCP and A2A stand side by side over the domain and import no other surface. The HTTP API mounts their HTTP bindings " +
        "(surfaces/mcp/endpoint.ts, surfaces/a2a/http.ts) as two of its endpoints and hands MCP its tools; the web server serves the HTTP API.",
      from: { path: "^surfaces/(mcp|a2a)/", pathNot: TEST_FILE },
      to: { path: "^surfaces/", pathNot: "^surfaces/$1/" },
    },
    {
      name: "http-mounts-the-protocol-bindings",
      severity: "error",
      comment:
        "The HTTP API reaches MCP and A2A through their HTTP bindings (surfaces/mcp/endpoint.ts, surfaces/a2a/http.ts), and MCP's tool shape " +
        "(surfaces/mcp/tool.ts, outputs.ts) and A2A's skill shape (surfaces/a2a/skill.ts), since each tool and skill is derived from an endpoint's declaration; never the web server.",
      from: { path: "^surfaces/http/", pathNot: TEST_FILE },
      to: { path: "^surfaces/(mcp|a2a|web)/", pathNot: "^surfaces/(mcp/(endpoint|tool|outputs)|a2a/(http|skill))\\.ts$" },
    },
    {
      name: "client-stands-alone",
      severity: "error",
      comment: "client/ is the typed REST client shipped as quorum/client: generated types and openapi-fetch, nothing of ours, so it runs wherever an agent does.",
      from: { path: "^client/", pathNot: TEST_FILE },
      to: { path: OUR_FOLDERS, pathNot: "^client/" },
    },
    {
      name: "nothing-imports-the-web-server",
      severity: "error",
      comment: "surfaces/web/ is a process of its own (bin/start.ts spawns surfaces/web/serve.ts by path); no module of ours imports it, so it can change without touching them.",
      from: { path: OUR_FOLDERS, pathNot: ["^surfaces/web/", ...TEST_CODE] },
      to: { path: "^surfaces/web/" },
    },
    {
      name: "no-production-imports-of-test-fixtures",
      severity: "error",
      comment:
        "test/ holds fixtures and helper processes for tests; production code (anything but *.test.ts and test/, e2e/, bench/, chaos/) never imports it. " +
        "Move what production needs out of test/.",
      from: { pathNot: TEST_CODE },
      to: { path: "^test/" },
    },
    {
      name: "no-circular",
      severity: "error",
      comment:
        "Modules of ours import each other in a cycle (type-only edges count too: a type cycle is still two modules that cannot be understood apart). " +
        "Break it by moving the shared part into a third module both import.",
      from: {},
      to: { circular: true },
    },
    {
      name: "not-to-unresolvable",
      severity: "error",
      comment:
        "An import of ours that dependency-cruiser cannot resolve to a file: the layer rules cannot see where it points, so they would pass it silently. " +
        "Usually a moved file; tsc reports the same import.",
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: ["node_modules"] },
    // test/fixtures/upstream holds other projects as they are (their imports are theirs).
    exclude: { path: "(^|/)(node_modules|\\.git|\\.next[^/]*|\\.quorum|test-results|playwright-report|test/fixtures/upstream)(/|$)" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".mjs", ".js", ".cjs", ".json", ".d.ts"],
      mainFields: ["module", "main", "types", "typings"],
    },
    skipAnalysisNotInRules: true,
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
};
