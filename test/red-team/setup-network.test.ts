// Red team (issue 42): a repository's setup script, as a compromised install script would write it, reaches
// for the hub's machine while it has its only network — the registry proxy. Straight out (the app's port, the
// database's), through the proxy to the app's port, to an address of the private network, and to a host no
// registry names: each reach is a probe the setup prints, and the test fails if any reach works.
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { prepareEnvironment } from "../../agents/team/environment";
import { ensureTeam } from "../../agents/team/team";
import { getDb } from "../../db/client";
import { systemClock } from "../../domain/clock";
import { launchFlight } from "../../domain/flights/launch";
import { loadEventsOfKinds } from "../../domain/journal/load";
import { fixtureRepo } from "../fixtures/repos";
import { makeHuman } from "../helpers";

/** The setup: a Python script (urllib honours the proxy's variables) that prints one verdict per reach. */
function probingSetup(appPort: number, databasePort: number): string {
  return `import os, socket, urllib.request
def direct(name, port):
    try:
        socket.create_connection(("127.0.0.1", port), timeout=3).close()
        print("PROBE", name, "reached")
    except OSError as e:
        print("PROBE", name, "refused:", e)
def proxied(name, url):
    try:
        urllib.request.urlopen(url, timeout=10).read()
        print("PROBE", name, "reached")
    except Exception as e:
        print("PROBE", name, "refused:", e)
direct("app-direct", ${appPort})
direct("database-direct", ${databasePort})
proxied("app-through-proxy", "http://127.0.0.1:${appPort}/")
proxied("app-by-name", "http://localhost:${appPort}/")
proxied("private-network", "http://10.0.0.1/")
proxied("cloud-metadata", "http://169.254.169.254/latest/meta-data/")
proxied("unlisted-host", "https://unlisted.example/")
print("proxy is", os.environ.get("HTTPS_PROXY"))
`;
}

describe("a setup's network", () => {
  it("reaches nothing of the hub's machine or network, straight out or through the registry proxy", async () => {
    const app = createServer((_, res) => res.end("the hub")).listen(0, "127.0.0.1");
    await once(app, "listening");
    try {
      const appPort = (app.address() as AddressInfo).port;
      const databasePort = Number(new URL(process.env.DATABASE_URL!).port || 5432);
      const repo = fixtureRepo("probing-setup", {
        "probe.py": probingSetup(appPort, databasePort),
        "package.json": JSON.stringify({ name: "probing-setup", private: true, scripts: { test: "node --test" } }),
      });
      const db = getDb();
      const team = await ensureTeam(db, systemClock);
      const { flight } = await launchFlight(db, await makeHuman(), { goal: "Probe.", repo, mode: "scripted", setupCommand: "python3 probe.py" }, systemClock);
      const outcome = await prepareEnvironment(db, team.orchestrator.principal, flight, systemClock);
      expect(outcome.ok).toBe(true);
      const [ended] = (await loadEventsOfKinds(db, ["FlightSetupEnded"])).filter((e) => (e.data as { flightId: string }).flightId === flight.id);
      const log = (ended.data as { log: string }).log;
      const probes = ["app-direct", "database-direct", "app-through-proxy", "app-by-name", "private-network", "cloud-metadata", "unlisted-host"];
      for (const probe of probes) expect(log, log).toMatch(new RegExp(`PROBE ${probe} refused`));
      expect(log).not.toMatch(/PROBE \S+ reached/);
      // The proxy said each of its refusals in the setup's log, and the setup did see a proxy.
      expect(log).toMatch(/\[quorum proxy\] refused GET 127\.0\.0\.1:\d+: 127\.0\.0\.1 is not a package registry/);
      expect(log).toMatch(/\[quorum proxy\] refused CONNECT unlisted\.example:443/);
      expect(log).toContain("proxy is http://127.0.0.1:");
    } finally {
      app.close();
    }
  }, 60_000);
});
