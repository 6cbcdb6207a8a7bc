// The only network a flight's setup has: an HTTP proxy of the hub's on a Unix socket, which the sandbox shows
// (and bridges to a loopback port inside its own network namespace, agents/team/environment.ts). It tunnels
// (CONNECT) or forwards (absolute-form GET) to the package registries ./package-registries.ts allows, on
// their ports, and to nothing else: a host not on the list, and any host that resolves to a loopback,
// private, link-local or otherwise inward address (the hub's API, its Postgres, the cloud's metadata
// service), is refused with 403 and the refusal said in the setup's log. The connection goes to the address
// that was checked, so a name cannot be re-resolved inward between the check and the connect.
import { lookup } from "node:dns/promises";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, request, type IncomingMessage, type ServerResponse } from "node:http";
import { connect, isIP, type Socket } from "node:net";
import { networkInterfaces, tmpdir } from "node:os";
import { join } from "node:path";
import { isInwardAddress } from "../../domain/webhooks/outside-only";

export interface RegistryProxy {
  /** The Unix socket it listens on (world-writable: the sandbox's user connects to it). */
  socket: string;
  close(): Promise<void>;
}

/** This machine's own addresses (where the hub's ports listen, whatever its network calls them). */
function ownAddresses(): Set<string> {
  return new Set(
    Object.values(networkInterfaces())
      .flat()
      .map((entry) => entry?.address)
      .filter((address): address is string => Boolean(address)),
  );
}

type Target = { ok: true; host: string; port: number; address: string } | { ok: false; why: string };

/** Where `host:port` may be reached, or why not. */
async function check(hosts: ReadonlyMap<string, ReadonlySet<number>>, hostname: string, port: number): Promise<Target> {
  const host = hostname.toLowerCase().replace(/^\[(.*)\]$/, "$1");
  const ports = hosts.get(host);
  if (!ports) return { ok: false, why: `${host} is not a package registry this hub allows (add it with QUORUM_SETUP_HOSTS)` };
  if (!ports.has(port)) return { ok: false, why: `${host} is allowed on port ${[...ports].join(", ")}, not ${port}` };
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address);
  } catch (error) {
    return { ok: false, why: `${host} does not resolve (${(error as NodeJS.ErrnoException).code ?? "lookup failed"})` };
  }
  const own = ownAddresses();
  const inward = addresses.find((address) => isInwardAddress(address) || own.has(address));
  if (inward || addresses.length === 0) return { ok: false, why: `${host} resolves to ${inward ?? "nothing"}, inside this machine or its network` };
  return { ok: true, host, port, address: addresses[0] };
}

/** `host:port` of a CONNECT's target, IPv6 literals in brackets. */
function splitAuthority(authority: string): { host: string; port: number } | null {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:[\]]+):(\d{1,5})$/.exec(authority);
  return match ? { host: match[1], port: Number(match[2]) } : null;
}

/**
 * Starts the proxy for one setup. `hosts`: what it may reach; `say`: a line for the setup's log on each refusal.
 */
export async function startRegistryProxy(hosts: ReadonlyMap<string, ReadonlySet<number>>, say: (line: string) => void): Promise<RegistryProxy> {
  const dir = mkdtempSync(join(tmpdir(), "quorum-proxy-"));
  const socket = join(dir, "proxy.sock");
  const open = new Set<Socket>();
  const refuse = (what: string, why: string) => say(`[quorum proxy] refused ${what}: ${why}`);

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void forward(req, res);
  });

  async function forward(req: IncomingMessage, res: ServerResponse) {
    const url = URL.canParse(req.url ?? "") ? new URL(req.url!) : null;
    if (url?.protocol !== "http:") {
      res.writeHead(400, { "content-type": "text/plain" }).end("the registry proxy forwards absolute http:// URLs and tunnels CONNECT\n");
      return;
    }
    const target = await check(hosts, url.hostname, Number(url.port || 80));
    if (!target.ok) {
      refuse(`${req.method} ${url.host}`, target.why);
      res.writeHead(403, { "content-type": "text/plain" }).end(`${target.why}\n`);
      return;
    }
    const headers: Record<string, string | string[] | undefined> = { ...req.headers, host: url.host };
    delete headers["proxy-connection"];
    delete headers["proxy-authorization"];
    const upstream = request({ host: target.address, port: target.port, method: req.method, path: `${url.pathname}${url.search}`, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on("error", (error) => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
      res.end(`${url.host}: ${error.message}\n`);
    });
    req.pipe(upstream);
  }

  server.on("connect", (req: IncomingMessage, client: Socket, head: Buffer) => {
    open.add(client);
    client.on("close", () => open.delete(client));
    client.on("error", () => client.destroy());
    void (async () => {
      const authority = splitAuthority(req.url ?? "");
      const target = authority ? await check(hosts, authority.host, authority.port) : ({ ok: false, why: "not host:port" } as const);
      if (!target.ok) {
        refuse(`CONNECT ${req.url}`, target.why);
        client.end(`HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\nconnection: close\r\n\r\n${target.why}\n`);
        return;
      }
      const upstream = connect(target.port, target.address);
      open.add(upstream);
      upstream.on("close", () => open.delete(upstream));
      let established = false;
      upstream.on("connect", () => {
        established = true;
        client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
        if (head.length) upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      });
      upstream.on("error", (error) => {
        if (!established) client.end(`HTTP/1.1 502 Bad Gateway\r\nconnection: close\r\n\r\n${error.message}\n`);
        else client.destroy();
      });
      client.on("close", () => upstream.destroy());
    })();
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socket, () => resolve());
  });
  // The sandbox's user connects to it; the folder around it is the hub's own and shown to nobody else.
  chmodSync(socket, 0o666);
  return {
    socket,
    async close() {
      for (const connection of open) connection.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
