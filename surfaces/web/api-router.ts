// Serves /api/* on `quorum start`'s plain node:http server through the one router (surfaces/http/router.ts), without
// Next's request path; surfaces/web/serve.ts hands every other path to Next. It keeps what Next gave the API: the
// security headers, a body that streams into the handler, `request.signal` aborting when the client goes, and a
// response written chunk by chunk as the handler's stream yields it.
import type { IncomingMessage, ServerResponse } from "node:http";
import { developmentBuild } from "@/domain/config";
import { securityHeaders } from "@/domain/security-headers";
import { answerApi, type OnMatched } from "@/surfaces/http/router";

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...headers, "Content-Type": "application/json", "Cache-Control": "no-store", "Content-Length": Buffer.byteLength(text) });
  res.end(text);
}

/** How long the rest of an upload the handler refused is read and dropped, so its client sees the answer. */
const LINGER_MS = 1_000;

/**
 * The request body as a web stream that pulls from the socket only as fast as the handler reads. Not
 * `Readable.toWeb(req)`: cancelling that stream destroys the request and with it the socket, so a
 * handler that stops reading past the 1 MiB cap (surfaces/http/handler.ts) could not answer its 413.
 * Cancelling this one pauses the upload and calls `onCancel`.
 */
function bodyStream(req: IncomingMessage, onCancel: () => void): ReadableStream<Uint8Array> {
  let cancelled = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      req.on("data", (chunk: Buffer) => {
        if (cancelled) return;
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 0) <= 0) req.pause();
      });
      req.once("end", () => cancelled || controller.close());
      req.once("error", (error) => cancelled || controller.error(error));
      req.pause();
    },
    pull() {
      req.resume();
    },
    cancel() {
      cancelled = true;
      req.pause();
      onCancel();
    },
  });
}

/**
 * After answering a refused upload: drop what still arrives for a moment, then close the connection. A client
 * still sending when the socket closed would get a reset and might lose the answer; one that keeps sending
 * costs the server a second of reading, never the whole upload.
 */
function dropRestOfUpload(req: IncomingMessage): void {
  if (req.complete) return;
  const timer = setTimeout(() => req.socket?.destroy(), LINGER_MS);
  req.once("end", () => clearTimeout(timer));
  req.resume();
}

function requestOf(req: IncomingMessage, url: URL, method: string, signal: AbortSignal, onBodyCancel: () => void): Request {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) if (!raw[i].startsWith(":")) headers.append(raw[i], raw[i + 1]);
  const hasBody = method !== "GET" && method !== "HEAD";
  return new Request(url, {
    method,
    headers,
    signal,
    body: hasBody ? bodyStream(req, onBodyCancel) : null,
    // A streamed request body must say so (fetch's rule); the handler reads it while it arrives.
    ...(hasBody ? { duplex: "half" } : {}),
  } as RequestInit);
}

/** Waits until the socket can take more, or the client is gone. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((done) => {
    const finish = () => {
      res.off("drain", finish);
      res.off("close", finish);
      done();
    };
    res.once("drain", finish);
    res.once("close", finish);
  });
}

async function writeResponse(res: ServerResponse, response: Response, headOnly: boolean, security: Record<string, string>): Promise<void> {
  res.statusCode = response.status;
  for (const key in security) res.setHeader(key, security[key]);
  for (const [key, value] of response.headers) if (key !== "set-cookie") res.setHeader(key, value);
  const cookies = response.headers.getSetCookie();
  if (cookies.length) res.setHeader("Set-Cookie", cookies);
  if (!response.body || headOnly) {
    void response.body?.cancel().catch(() => {});
    res.end();
    return;
  }
  const reader = response.body.getReader();
  res.once("close", () => void reader.cancel().catch(() => {}));
  // An event stream's headers go out at once: its first event may wait.
  if (response.headers.get("content-type")?.startsWith("text/event-stream")) res.flushHeaders();
  const first = await reader.read();
  if (first.done) return void res.end();
  // A body that is complete after one chunk (every JSON answer) goes out in one write with its Content-Length;
  // a chunk that is not there by the next turn of the event loop is not waited for.
  const next = reader.read();
  const soon = await Promise.race([next, new Promise<null>((resolve) => setImmediate(resolve, null))]);
  if (soon?.done) return void res.end(first.value);
  let chunk: ReadableStreamReadResult<Uint8Array> = first;
  while (!chunk.done) {
    if (!res.write(chunk.value)) await drained(res);
    if (res.destroyed) return;
    chunk = chunk === first ? (soon ?? (await next)) : await reader.read();
  }
  res.end();
}

/** Told which path a request matched, before it is answered (surfaces/web/request-watch.ts labels metrics and spans with it). */
export type OnRouteMatched = (req: IncomingMessage, pattern: string) => void;

/** The request handler for /api/* paths; `answer` is the one router (a test may hand it one over other declarations). */
export function createApiRouter(
  answer: (request: Request, onMatched?: OnMatched) => Promise<Response> = answerApi,
  onMatched?: OnRouteMatched,
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  // The same for every answer: built once.
  const security = Object.fromEntries(securityHeaders(developmentBuild()).map(({ key, value }) => [key, value]));
  return async (req, res) => {
    try {
      const url = req.url ?? "/";
      // The handlers read the URL (query, Origin checks against Host): a Host that makes no URL is the client's error.
      const requestUrl = URL.parse(`http://${req.headers.host ?? "localhost"}${url}`);
      if (!requestUrl) return sendJson(res, 400, { error: "invalid", message: "the Host header does not name a host" }, security);
      const method = (req.method ?? "GET").toUpperCase();
      const aborted = new AbortController();
      // "close" also follows a completed response; only a close before the end means the client went away.
      res.once("close", () => {
        if (!res.writableFinished) aborted.abort();
      });
      // A handler that stopped reading the upload (the body cap) answers first; the rest is never read into memory.
      const request = requestOf(req, requestUrl, method, aborted.signal, () => res.once("finish", () => dropRestOfUpload(req)));
      // Metrics and spans keep the route label they have always carried (`/api/tasks/[id]`), so dashboards and alerts still match.
      const response = await answer(request, onMatched && ((pattern) => onMatched(req, pattern.replace(/\{(\w+)\}/g, "[$1]"))));
      await writeResponse(res, response, method === "HEAD", security);
    } catch (error) {
      console.error(`unexpected error serving ${req.method} ${req.url}`, error);
      if (!res.headersSent) sendJson(res, 500, { error: "internal", message: "something went wrong on our side; the request changed nothing" }, security);
      else res.destroy();
    }
  };
}
