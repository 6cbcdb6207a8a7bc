// A loopback HTTP server for testing the live clients: it records each request and answers from a script.
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface WireRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

export interface WireReply {
  status?: number;
  headers?: Record<string, string>;
  /** An object is sent as JSON; a string as is (to send something malformed). */
  body: unknown;
  /** Waits this long before answering (a stall). */
  delayMs?: number;
}

export interface WireServer {
  url: string;
  requests: WireRequest[];
  close(): Promise<void>;
}

/** `reply` gets each request and its 0-based number. */
export async function startWireServer(reply: (request: WireRequest, n: number) => WireReply): Promise<WireServer> {
  const requests: WireRequest[] = [];
  const server = createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk) => (raw += chunk));
    req.on("end", () => {
      const request = { method: req.method ?? "", path: req.url ?? "", headers: req.headers, body: raw ? JSON.parse(raw) : null };
      requests.push(request);
      const answer = reply(request, requests.length - 1);
      const text = typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body);
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(answer.status ?? 200, { "content-type": "application/json", ...answer.headers });
        res.end(text);
      };
      if (answer.delayMs) {
        const timer = setTimeout(send, answer.delayMs);
        res.on("close", () => clearTimeout(timer));
      } else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A retry policy that never waits: it records the delays the client asked for. */
export function recordingRetry(maxAttempts = 4) {
  const delays: number[] = [];
  return {
    delays,
    policy: { maxAttempts, baseDelayMs: 500, maxDelayMs: 60_000, random: () => 0.5, sleep: async (ms: number) => void delays.push(ms) },
  };
}
