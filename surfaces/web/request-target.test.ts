// The request line's target, over a real socket: absolute-form and unresolved paths are 400 before any
// router runs; ordinary paths, queries and OPTIONS * pass.
import { createServer, type Server } from "node:http";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { refusedTarget, requestTargetProblem } from "./request-target";

let server: Server;
let port: number;
const served: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    if (refusedTarget(req, res)) return;
    served.push(req.url ?? "");
    res.end("served");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Sends a raw request line, as an attacker's socket would, and returns the status line and body. */
function send(target: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`));
    let answer = "";
    socket.on("data", (chunk) => (answer += chunk.toString()));
    socket.on("end", () => resolve({ status: Number(answer.split(" ")[1]), body: answer.split("\r\n\r\n")[1] ?? "" }));
    socket.on("error", reject);
  });
}

describe("the request target", () => {
  it("answers absolute-form and unresolved paths 400 with the reason, serving nothing", async () => {
    for (const target of ["http://evil.example/room", "https://127.0.0.1/api/stream", "/x/../api/stream", "/api/./stream", "/x/%2e%2e/api/stream", "//evil.example/room"]) {
      const answer = await send(target);
      expect(answer.status, target).toBe(400);
      expect(JSON.parse(answer.body), target).toMatchObject({ error: "invalid", message: expect.stringContaining("invalid request target") });
    }
    expect(served).toEqual([]);
  });

  it("serves ordinary paths, queries with dots and encoded characters", async () => {
    for (const target of ["/room", "/api/journal?q=../x", "/_next/static/chunks/a.b.js", "/api/tasks/%7Bid%7D", "/api/health"]) {
      expect((await send(target)).status, target).toBe(200);
    }
    expect(served).toHaveLength(5);
    expect(requestTargetProblem("*")).toBeNull();
  });
});
