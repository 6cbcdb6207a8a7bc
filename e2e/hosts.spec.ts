// Several hosts, one Postgres, reduced: Postgres, two app instances (`quorum start`, sweepers on) and two
// agent hosts in network namespaces; one app host and one agent host are cut off the bridge for longer
// than two leases (6 s each, QUORUM_LEASE_SECONDS) while Postgres restarts, then come back. Every task
// is done once with every item once, the cut host's late writes are refused with stale_fence, each
// expired lease is swept once, no acknowledged post is lost, every stream holds what its viewer may see.
// The full size is `npm run chaos -- --only=hosts`. Needs root for `ip netns`: skips, saying why, without.
import { expect, test } from "@playwright/test";
import { hostsTally, runHosts } from "../chaos/hosts/run-hosts";
import { netnsUnavailable } from "../chaos/hosts/netns";

const unavailable = netnsUnavailable();

test("two app hosts and two agent hosts on one Postgres: a host of each cut off past two leases, Postgres restarted, nothing lost", async () => {
  test.skip(unavailable !== null, `network namespaces unavailable: ${unavailable}`);
  test.setTimeout(180_000);
  const report = await runHosts({
    apps: 2,
    agentHosts: 2,
    agentsPerHost: 2,
    tasks: 30,
    items: 6,
    itemPaceMs: 200,
    leaseSeconds: 6,
    cutSeconds: 24,
    benchSeconds: 0,
    distDir: process.env.E2E_DIST_DIR ?? ".next",
    log: (line) => console.log(`[hosts] ${line}`),
  });
  const tally = hostsTally(report);
  for (const line of tally) console.log(`${line.ok ? "PASS" : "FAIL"} ${line.part.trim()}: ${line.result}`);
  expect(tally.filter((l) => !l.ok).map((l) => `${l.part.trim()}: ${l.result}`)).toEqual([]);
});
