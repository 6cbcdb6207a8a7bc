// A server that stops answering without closing the connection: the browser must notice by itself.
// A small TCP proxy stands between the browser and Quorum and, on command, black-holes every byte in
// both directions while keeping the sockets open (what a frozen server or a dead NAT looks like). The
// page must turn amber "Reconnecting…" within 25 s, and be live again once the path heals.
import { createConnection, createServer, type Server, type Socket } from "node:net";
import { expect, test } from "./fixtures";

interface Proxy {
  url: string;
  /** From now on nothing passes either way, and the sockets stay open. */
  blackHole(): void;
  /** Forwards again; the black-holed connections are cut, as a healed path's stale state would be. */
  heal(): void;
  close(): Promise<void>;
}

async function startProxy(targetPort: number): Promise<Proxy> {
  let holed = false;
  const pairs = new Set<{ client: Socket; upstream: Socket; holed: boolean }>();
  const server: Server = createServer((client) => {
    const upstream = createConnection({ host: "127.0.0.1", port: targetPort });
    const pair = { client, upstream, holed };
    pairs.add(pair);
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on("data", (chunk) => {
      if (!holed && !pair.holed) upstream.write(chunk);
    });
    upstream.on("data", (chunk) => {
      if (!holed && !pair.holed) client.write(chunk);
    });
    client.on("close", end);
    upstream.on("close", end);
    client.on("error", end);
    upstream.on("error", end);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("the proxy has no port");
  return {
    url: `http://127.0.0.1:${address.port}`,
    blackHole() {
      holed = true;
      for (const pair of pairs) pair.holed = true;
    },
    heal() {
      holed = false;
      for (const pair of [...pairs]) if (pair.holed) pair.client.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const pair of pairs) pair.client.destroy();
        server.close(() => resolve());
      }),
  };
}

test("shows Reconnecting… within 25 s of a server that stops answering, and goes live again", async ({ page, signIn }) => {
  test.setTimeout(90_000);
  const proxy = await startProxy(Number(process.env.QUORUM_E2E_PORT));
  try {
    // The session cookie belongs to the host, not the port: signed in directly, the page loads through the proxy.
    await signIn(page);
    await page.goto(`${proxy.url}/`);
    const status = page.getByTestId("live-status");
    await expect(status).toHaveAttribute("data-status", "live");

    proxy.blackHole();
    const stopped = Date.now();
    await expect(status).toHaveAttribute("data-status", "reconnecting", { timeout: 25_000 });
    const noticedMs = Date.now() - stopped;
    await expect(status).toHaveText("Reconnecting…");
    await expect(status.locator("span").first()).toHaveClass(/bg-amber-500/);
    console.log(JSON.stringify({ liveStall: { noticedMs } }));
    expect(noticedMs).toBeLessThan(25_000);

    proxy.heal();
    await expect(status).toHaveAttribute("data-status", "live", { timeout: 25_000 });
    await expect(status).toHaveText("Live");
  } finally {
    await proxy.close();
  }
});
