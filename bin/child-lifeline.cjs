// Preloaded (`node --require`) into each process `quorum start` supervises (bin/processes.ts).
// - fd 3 is a pipe from the supervisor. It closes when the supervisor dies, however it dies: then this
//   process group ends at once instead of living on as an orphan that holds the port.
// - On SIGTERM, the web server (surfaces/web/serve.ts, or next-server) closes its listener and waits for every connection to end, and a live
//   /api/stream never ends by itself: responses still streaming are cut, the rest get a short grace.
"use strict";
const { Socket } = require("node:net");
const { subscribe } = require("node:diagnostics_channel");

const STRAGGLER_GRACE_MS = 2_000;

function die() {
  try {
    process.kill(-process.pid, "SIGKILL");
  } catch {
    process.exit(1);
  }
}

try {
  const lifeline = new Socket({ fd: 3, readable: true, writable: false });
  lifeline.on("end", die);
  lifeline.on("close", die);
  lifeline.on("error", die);
  lifeline.resume();
  lifeline.unref();
} catch {
  // not started with a lifeline: nothing to watch
}

const servers = new Set();
const open = new Set();
subscribe("http.server.request.start", ({ server, response }) => {
  servers.add(server);
  open.add(response);
  response.once("close", () => open.delete(response));
});

process.on("SIGTERM", () => {
  // Alone, this listener would swallow the signal: then it keeps its default meaning.
  if (process.listenerCount("SIGTERM") === 1) process.exit(143);
  // After the server's own handler has stopped the listener (same tick), cut the streams.
  setImmediate(() => {
    for (const response of open) if (response.headersSent) response.socket?.destroy();
    for (const server of servers) server.closeIdleConnections?.();
  });
  setTimeout(() => {
    for (const server of servers) server.closeAllConnections?.();
  }, STRAGGLER_GRACE_MS).unref();
});
