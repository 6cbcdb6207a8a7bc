// The registry proxy refuses what a setup must never reach: a host not on its list, and a listed name or
// address that is inward (loopback, private) — each with 403, and the refusal said in the setup's log.
import { once } from "node:events";
import { createServer } from "node:http";
import { type AddressInfo, connect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { type RegistryProxy, startRegistryProxy } from "./registry-proxy";

let proxy: RegistryProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
});

/** Sends `request` (a raw HTTP/1.1 request) over the proxy's Unix socket and returns the first line of its answer. */
async function ask(socket: string, request: string): Promise<string> {
  const client = connect(socket);
  await once(client, "connect");
  client.write(request);
  const [chunk] = (await once(client, "data")) as [Buffer];
  client.destroy();
  return chunk.toString().split("\r\n")[0];
}

describe("the registry proxy", () => {
  it("refuses an unlisted host, a listed name that resolves to loopback, a private address, and a port not listed", async () => {
    const hub = createServer((_, res) => res.end("the hub")).listen(0, "127.0.0.1");
    await once(hub, "listening");
    const port = (hub.address() as AddressInfo).port;
    const said: string[] = [];
    try {
      const hosts = new Map([
        ["localhost", new Set([port, 443])],
        ["10.1.2.3", new Set([443])],
        ["registry.example", new Set([443])],
      ]);
      proxy = await startRegistryProxy(hosts, (line) => said.push(line));
      expect(await ask(proxy.socket, "CONNECT unlisted.example:443 HTTP/1.1\r\nhost: unlisted.example:443\r\n\r\n")).toBe("HTTP/1.1 403 Forbidden");
      expect(await ask(proxy.socket, `CONNECT localhost:${port} HTTP/1.1\r\nhost: localhost\r\n\r\n`)).toBe("HTTP/1.1 403 Forbidden");
      expect(await ask(proxy.socket, `CONNECT 127.0.0.1:${port} HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n`)).toBe("HTTP/1.1 403 Forbidden");
      expect(await ask(proxy.socket, "CONNECT 10.1.2.3:443 HTTP/1.1\r\nhost: 10.1.2.3\r\n\r\n")).toBe("HTTP/1.1 403 Forbidden");
      expect(await ask(proxy.socket, "CONNECT registry.example:8443 HTTP/1.1\r\nhost: registry.example\r\n\r\n")).toBe("HTTP/1.1 403 Forbidden");
      expect(await ask(proxy.socket, `GET http://localhost:${port}/ HTTP/1.1\r\nhost: localhost:${port}\r\n\r\n`)).toBe("HTTP/1.1 403 Forbidden");
      expect(said).toEqual([
        "[quorum proxy] refused CONNECT unlisted.example:443: unlisted.example is not a package registry this hub allows (add it with QUORUM_SETUP_HOSTS)",
        expect.stringMatching(
          new RegExp(`^\\[quorum proxy\\] refused CONNECT localhost:${port}: localhost resolves to (127\\.0\\.0\\.1|::1), inside this machine or its network$`),
        ),
        expect.stringMatching(/refused CONNECT 127\.0\.0\.1:\d+: 127\.0\.0\.1 is not a package registry/),
        "[quorum proxy] refused CONNECT 10.1.2.3:443: 10.1.2.3 resolves to 10.1.2.3, inside this machine or its network",
        "[quorum proxy] refused CONNECT registry.example:8443: registry.example is allowed on port 443, not 8443",
        expect.stringMatching(/refused GET localhost:\d+: localhost resolves to/),
      ]);
    } finally {
      hub.close();
    }
  });
});
