/**
 * Layer rules of docs/DESIGN.md §1: `app`, `mcp` → `server` → `db`; `agents` → `server` → `db`
 * (`agents` may import `db` types only); `components` are fed by `app` and import `server` view types only.
 * `npm run layers` checks them; a violation names its rule. It then checks that the folders of server/ and of components/
 * import each other one way only, in a pass of its own over production files (.dependency-cruiser.folders.cjs).
 *
 * "Test code" below: `*.test.ts(x)` / `*.spec.ts(x)` beside the code, and everything under test/, e2e/, bench/, chaos/.
 * `tsPreCompilationDeps: true` keeps `import type` edges in the graph, marked "type-only", so rules can allow them.
 */

const TEST_FILE = "\\.(test|spec)\\.tsx?$";
const TEST_CODE = ["^(test|e2e|bench|chaos)/", TEST_FILE];
const OUR_FOLDERS = "^(app|components|server|db|agents|mcp|bin|contract|client|web|test|e2e|bench|chaos)/";

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "server-is-the-domain",
      severity: "error",
      comment:
        "server/ holds every rule and is called by app/, mcp/, agents/ and bin/; it never imports them (nor components/). " +
        "Move the shared piece into server/ (or pass it in as an argument) instead of reaching up.",
      from: { path: "^server/", pathNot: TEST_FILE },
      to: { path: "^(app|components|agents|mcp|bin|web)/" },
    },
    {
      name: "server-tests-enter-app-by-routes",
      severity: "error",
      comment:
        "A test beside server/ code may call a real route handler (app/**/route.ts, through test/helpers' call()) to test the HTTP mapping, " +
        "but nothing else of app/, components/, agents/, mcp/ or bin/.",
      from: { path: `^server/.*${TEST_FILE}` },
      to: { path: "^(app|components|agents|mcp|bin)/", pathNot: "^app/.*/route\\.ts$" },
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
        "Next bundles server/, app/, mcp/ and contract/; db/embedded.ts, db/migrate.ts and db/install-functions.ts read the folders beside them " +
        "(migrations, function files), which a bundle cannot trace, so `next build` fails. Take QUORUM_HOME from db/home.ts; migrate from bin/.",
      from: { path: "^(server|app|mcp|contract)/", pathNot: TEST_FILE },
      to: { path: "^db/(embedded|embedded-roles|migrate|install-functions)\\.ts$" },
    },
    {
      name: "components-never-reach-data",
      severity: "error",
      comment: "components/ are fed by app/ (pages, /api over HTTP); they never import the database, the agent runtime, the MCP surface or the CLI.",
      from: { path: "^components/" },
      to: { path: "^(db|agents|mcp|bin)/" },
    },
    {
      name: "components-see-server-types-only",
      severity: "error",
      comment:
        "components/ may name server/ view types (`import type { … }` or `import { type … }`), never import server/ code: " +
        "a value import would pull domain code (and its database client) into the client bundle.",
      from: { path: "^components/" },
      to: { path: "^server/", dependencyTypesNot: ["type-only"] },
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
        "The agent runtime acts through server/ functions so that no gate can be bypassed; it may name db/ types (`import type`) but not query tables itself. " +
        "Tests beside agents/ code may use db/ to set up and inspect state.",
      from: { path: "^agents/", pathNot: TEST_FILE },
      to: { path: "^db/", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "app-never-reaches-db",
      severity: "error",
      comment: "Pages and route handlers get the database from server/ (ServerContext); app/ imports nothing from db/, types included.",
      from: { path: "^app/" },
      to: { path: "^db/" },
    },
    {
      name: "mcp-is-a-surface",
      severity: "error",
      comment:
        "mcp/ is a surface beside app/api: it calls server/ functions only, never the database, the web app, components or the agent runtime. " +
        "Tests beside mcp/ code may use db/ to set up state.",
      from: { path: "^mcp/", pathNot: TEST_FILE },
      to: { path: "^(db|app|components|agents)/" },
    },
    {
      name: "contract-describes-server",
      severity: "error",
      comment:
        "contract/ describes the HTTP API (contract/routes/, the OpenAPI document) with the schemas server/ exports; it reads server/ only, " +
        "and app/ (the document's route, the reference page) and the client generator read it.",
      from: { path: "^contract/", pathNot: TEST_FILE },
      to: { path: "^(db|app|components|agents|mcp|bin|client)/" },
    },
    {
      name: "client-stands-alone",
      severity: "error",
      comment: "client/ is the typed REST client shipped as quorum/client: generated types and openapi-fetch, nothing of ours, so it runs wherever an agent does.",
      from: { path: "^client/", pathNot: TEST_FILE },
      to: { path: OUR_FOLDERS, pathNot: "^client/" },
    },
    {
      name: "server-never-describes-its-surfaces",
      severity: "error",
      comment: "server/ holds the rules; the API's description (contract/) sits above it.",
      from: { path: "^server/" },
      to: { path: "^contract/" },
    },
    {
      name: "web-serves-routes",
      severity: "error",
      comment:
        "web/ is the production web server: Next for pages, a lean router for /api/* that imports app/api/**/route.ts at run time. " +
        "It may import server/ (request shape, security headers) and nothing else of ours; the rules stay in server/, the handlers in app/api.",
      from: { path: "^web/", pathNot: TEST_FILE },
      to: { path: OUR_FOLDERS, pathNot: "^(web|server)/" },
    },
    {
      name: "nothing-imports-the-web-server",
      severity: "error",
      comment: "web/ is a process of its own (bin/start.ts spawns web/serve.ts by path); no module of ours imports it, so it can change without touching them.",
      from: { path: OUR_FOLDERS, pathNot: ["^web/", ...TEST_CODE] },
      to: { path: "^web/" },
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
