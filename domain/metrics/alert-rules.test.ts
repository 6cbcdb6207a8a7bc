// The alerting rules docs/DEPLOY.md recommends are valid Prometheus rules (`promtool check rules`), name only series
// /metrics exposes, and fire as described: a hub-wide figure reported alike by two instances alerts once, not once
// per instance (`promtool test rules` over made-up series).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { GET } from "@/app/metrics/route";
import { PROMTOOL } from "../../test/fixtures/prometheus";
import { makeHuman } from "../../test/helpers";

const deploy = readFileSync(fileURLToPath(new URL("../../docs/DEPLOY.md", import.meta.url)), "utf8");
const rules = [...deploy.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]).find((block) => block.startsWith("groups:"));
const dir = mkdtempSync(join(tmpdir(), "quorum-rules-"));

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function promtool(args: string[]) {
  const run = spawnSync(PROMTOOL, args, { cwd: dir, encoding: "utf8", timeout: 60_000 });
  return { code: run.status, output: `${run.stdout}${run.stderr}` };
}

describe("the alerting rules in docs/DEPLOY.md", () => {
  it("are rules promtool accepts", () => {
    expect(rules, "a ```yaml block starting with groups: in docs/DEPLOY.md").toBeDefined();
    writeFileSync(join(dir, "quorum.rules.yml"), rules!);
    const checked = promtool(["check", "rules", "quorum.rules.yml"]);
    expect(checked.output).toContain("SUCCESS");
    expect(checked.code).toBe(0);
  });

  it("name only series that /metrics exposes", async () => {
    const human = await makeHuman();
    const exposition = await (await GET(new Request("http://localhost/metrics", { headers: { host: "localhost", cookie: human.cookie } }))).text();
    const exposed = new Set(exposition.split("\n").flatMap((line) => (line.startsWith("# TYPE ") ? [line.split(" ")[2]] : [])));
    const named = new Set([...rules!.matchAll(/\b((?:quorum|nodejs)_[a-z0-9_]+)/g)].map((m) => m[1]));
    const missing = [...named].filter((name) => !exposed.has(name) && !exposed.has(name.replace(/_(bucket|count|sum)$/, "")));
    expect(named.size).toBeGreaterThan(10);
    expect(missing).toEqual([]);
  });

  it("alert once on a hub-wide figure that every instance reports alike, and per instance on a process's own", () => {
    writeFileSync(
      join(dir, "quorum.test.yml"),
      [
        "rule_files: [quorum.rules.yml]",
        "evaluation_interval: 1m",
        "tests:",
        "  - interval: 1m",
        "    input_series:",
        '      - series: quorum_escalations_overdue{job="quorum",instance="app1:3000"}',
        "        values: 0 1 1 1 1",
        '      - series: quorum_escalations_overdue{job="quorum",instance="app2:3000"}',
        "        values: 0 1 1 1 1",
        '      - series: quorum_announcer_running{job="quorum",instance="app1:3000"}',
        "        values: 1 1 1 1 1",
        '      - series: quorum_announcer_delay_seconds{job="quorum",instance="app1:3000"}',
        "        values: 0 3 3 3 3",
        '      - series: quorum_announcer_running{job="quorum",instance="app2:3000"}',
        "        values: 1 1 1 1 1",
        '      - series: quorum_announcer_delay_seconds{job="quorum",instance="app2:3000"}',
        "        values: 0 0 0 0 0",
        "    alert_rule_test:",
        "      - eval_time: 4m",
        "        alertname: QuorumEscalationPastDeadline",
        "        exp_alerts:",
        "          - exp_labels: { job: quorum }",
        "            exp_annotations:",
        '              summary: "an escalation is past its deadline and no decisions sweeper adopted its default: are sweepers running?"',
        "      - eval_time: 4m",
        "        alertname: QuorumAnnouncerLagging",
        "        exp_alerts:",
        '          - exp_labels: { job: quorum, instance: "app1:3000" }',
        "            exp_annotations:",
        `              summary: "live events reach app1:3000's streams 3 s after their commit (a long transaction, or Postgres overloaded)"`,
        "",
      ].join("\n"),
    );
    const tested = promtool(["test", "rules", "quorum.test.yml"]);
    expect(tested.output).toContain("SUCCESS");
    expect(tested.code).toBe(0);
  });
});
