// A handler for one declared endpoint, for tests that call the API in process: the request goes through the
// one router (surfaces/http/router.ts), so the path check, the match and the declaration all run as they do
// for a client. As a route file's export did, it answers as its own method, and a test may name the path's
// params beside a placeholder path ("/x"): the path is then spelled from the pattern and those params.
import { ROUTES } from "../surfaces/http/routes";
import { pathIssues } from "../domain/request-shape";
import { answerApi, apiPaths, matchApiPath } from "../surfaces/http/router";

const ORDERED = apiPaths(ROUTES);

export type ApiHandler = (request: Request, context?: { params?: unknown }) => Promise<Response>;

/** The path a pattern names with these params, each percent-encoded as a client would; null if one is missing. */
function spell(declared: string, params: Record<string, string>): string | null {
  let missing = false;
  const path = declared.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (typeof params[name] !== "string") missing = true;
    return encodeURIComponent(params[name] ?? "");
  });
  return missing ? null : path;
}

/** `apiHandler("POST", "/api/tasks/[id]/claim")`: the brackets as the old route folders spelled them, or `{id}`. */
export function apiHandler(method: string, pattern: string): ApiHandler {
  const declared = pattern.replace(/\[(\w+)\]/g, "{$1}");
  const upper = method.toUpperCase();
  return async (sent, context) => {
    const params = ((await context?.params) ?? {}) as Record<string, string>;
    const url = new URL(sent.url);
    // A path that already names this endpoint, or one the router refuses, is sent as is (a test of the path itself);
    // any other is spelled from the params.
    const refused = pathIssues(url.pathname).length > 0;
    const match = refused ? null : matchApiPath(ORDERED, url.pathname);
    const named = refused || (match?.path.path === declared && Object.entries(params).every(([name, value]) => match.params[name] === value));
    if (!named) {
      const path = spell(declared, params);
      if (path === null) throw new Error(`apiHandler(${method} ${pattern}) was sent ${url.pathname} without the params to spell its path`);
      url.pathname = path;
    }
    const body = upper === "GET" || upper === "HEAD" ? null : sent.body;
    const request = new Request(url, { method: upper, headers: sent.headers, body, signal: sent.signal, duplex: "half" } as RequestInit);
    return answerApi(request);
  };
}

/** Every method a path declares, as a route file's exports were: `apiRoute("/api/usage").POST`. */
export function apiRoute(pattern: string): Record<string, ApiHandler> {
  const declared = pattern.replace(/\[(\w+)\]/g, "{$1}");
  const methods = ROUTES.filter((r) => r.path === declared).map((r) => r.method.toUpperCase());
  if (!methods.length) throw new Error(`no endpoint is declared at ${pattern}`);
  return Object.fromEntries(methods.map((m) => [m, apiHandler(m, pattern)]));
}
