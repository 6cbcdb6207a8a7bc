// `npm run chaos`: the full-size chaos suite, with a tally at the end.
//   - fuzzing every POST endpoint with 1,000 generated requests each (test/fuzz.test.ts, FUZZ_N=1000);
//   - the authorization matrix and cross-site refusals (test/authz-matrix.test.ts);
//   - worker SIGKILLs: domain/tasks/fault-injection.test.ts run repeatedly (≥ 20 kills each) until ≥ 100 kills;
//   - app-server SIGKILLs: e2e/server-kill.spec.ts (Playwright), `quorum start` killed with its Postgres 5 times
//     under load from 8 posting agents and restarted on the same data (CHAOS_SERVER_KILLS);
//   - XSS probes: e2e/xss.spec.ts (Playwright), hostile text in every field, every page opened in Chromium;
//   - agent runs killed mid-turn: agents/resume.test.ts with ≥ 50 SIGKILLs (CRASH_RESUME_KILLS), each run resumed;
//   - back doors: e2e/back-doors.spec.ts (Playwright), issue 14's attacks around the gates (the embedded database,
//     direct messages through the journal, lesson promotion, body size, keys and sessions, path bytes, MCP Origin,
//     security headers, the smaller holes), one tally line each;
//   - several hosts, one Postgres (chaos/hosts): network namespaces for Postgres, 3 app instances and 4 agent
//     hosts; throughput with 1, 2 and 3 instances, then an app host and an agent host cut off for longer than
//     two leases while Postgres restarts (needs root for `ip netns`; says SKIP otherwise);
//   - models: agents/team/model-drills.test.ts, the first flight against a separate model server that answers
//     500 then recovers, 401, malformed JSON, prose without tool calls, a stall past the timeout, invalid tool
//     arguments; one tally line each (spend within budget, nothing stuck in progress, the human told once).
// Usage: npm run chaos [-- --fuzz=1000 --kills=100 --server-kills=5 --resume-kills=50 --skip=fuzz,authz,kills,serverkill,xss,resume,backdoors,hosts,models
//   --only=hosts,… to run just the named parts]
// Uses DATABASE_URL's server when set, else an embedded Postgres (vitest's global setup starts it). The
// Playwright parts build the web app into E2E_DIST_DIR (default .next) once, unless a build newer than the sources is there.
import { spawn } from "node:child_process";
import { existsSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const arg = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? fallback;
const FUZZ_N = Number(arg("fuzz", "1000"));
const KILLS = Number(arg("kills", "100"));
const SERVER_KILLS = Number(arg("server-kills", "5"));
const RESUME_KILLS = Number(arg("resume-kills", "50"));
const skip = new Set(arg("skip", "").split(",").filter(Boolean));
const only = new Set(arg("only", "").split(",").filter(Boolean));
const wanted = (part: string) => !skip.has(part) && (only.size === 0 || only.has(part));
const started = performance.now();

function progress(text: string) {
  const s = Math.round((performance.now() - started) / 1000);
  process.stderr.write(`[${String(Math.floor(s / 60)).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}] ${text}\n`);
}

/** Runs vitest on one file; resolves with its exit code and output. */
function vitest(file: string, env: Record<string, string>): Promise<{ code: number; output: string }> {
  return runLogged(file, [join("node_modules", "vitest", "vitest.mjs"), "run", file, "--reporter=default"], env);
}

/** Runs one Playwright spec (its global setup starts the browser suite's shared server); resolves with its exit code and output. */
function playwright(file: string, env: Record<string, string>): Promise<{ code: number; output: string }> {
  const fresh = buildIsFresh();
  if (!fresh) progress(`  no build of the web app newer than its sources in ${DIST_DIR}: Playwright's global setup builds it first (a minute or two)`);
  const args = [join("node_modules", "@playwright", "test", "cli.js"), "test", file, "--reporter=list", `--output=${tmpdir()}/quorum-chaos-playwright`];
  return runLogged(file, args, { ...env, ...(fresh ? { E2E_SKIP_BUILD: "1" } : {}) });
}

const DIST_DIR = process.env.E2E_DIST_DIR ?? ".next";
/** Whatever the web app's build compiles (tests aside). */
const BUILD_INPUTS = ["app", "components", "domain", "surfaces", "db", "agents", "instrumentation.ts", "next.config.ts", "postcss.config.mjs", "package-lock.json"];

function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return path.endsWith(".test.ts") ? 0 : stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newestMtime(join(path, name))));
}

/** A build exists in `distDir` and nothing it compiles changed since: it may be used without building again. */
function buildIsFresh(distDir = DIST_DIR): boolean {
  const buildId = join(root, distDir, "BUILD_ID");
  if (!existsSync(buildId)) return false;
  const inputs = BUILD_INPUTS.map((p) => join(root, p)).filter((p) => existsSync(p));
  return statSync(buildId).mtimeMs >= Math.max(...inputs.map(newestMtime));
}

function runLogged(file: string, args: string[], env: Record<string, string>): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, {
      cwd: root,
      env: { ...process.env, ...env, FORCE_COLOR: "0" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    const take = (chunk: Buffer) => {
      // Reporters colour their output even when asked not to; the tally reads plain text.
      // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping ANSI colour codes means matching the ESC control character
      output += chunk.toString().replace(/\x1b\[[0-9;]*m/g, "");
    };
    child.stdout.on("data", take);
    child.stderr.on("data", take);
    const tick = setInterval(() => progress(`  … ${file} still running`), 30_000);
    child.on("close", (code) => {
      clearInterval(tick);
      const log = `${tmpdir()}/quorum-chaos-${file.replace(/\W+/g, "-")}.log`;
      writeFileSync(log, output);
      progress(`  ${file}: exit ${code}, full output in ${log}`);
      resolve({ code: code ?? 1, output });
    });
  });
}
const join = (...parts: string[]) => parts.join("/").replace(/\/+/g, "/");

/** The JSON object a test printed on one line as `{"<key>": …}`, if it did. */
function report<T>(output: string, key: string): T | undefined {
  const line = output.split("\n").findLast((l) => l.includes(`{"${key}":`));
  return line ? (JSON.parse(line.slice(line.indexOf(`{"${key}":`)))[key] as T) : undefined;
}

const failureLines = (output: string) =>
  output
    .split("\n")
    .filter((l) => /✘|Error|expect\(|^\s*[+-] /.test(l))
    .slice(0, 30)
    .join("\n");

/** Awaits one part's run and its one-line report; a run without one goes in the tally as a failure. */
async function reported<T>(part: string, run: Promise<{ code: number; output: string }>, key: string): Promise<{ code: number; output: string; r: T } | null> {
  const { code, output } = await run;
  const r = report<T>(output, key);
  if (r) return { code, output, r };
  tally.push({ part, result: `no report (exit ${code}): ${failureLines(output) || output.slice(-800)}`, ok: false });
  return null;
}

interface Line {
  part: string;
  result: string;
  ok: boolean;
  skipped?: boolean;
}
const tally: Line[] = [];

async function fuzz() {
  progress(`fuzz: every POST endpoint × ${FUZZ_N} generated requests (this takes a while)`);
  const { code, output } = await vitest("test/fuzz.test.ts", { FUZZ_N: String(FUZZ_N), FUZZ_REPORT: "1" });
  const line = output.split("\n").find((l) => l.includes('{"fuzz":'));
  const json = line?.slice(line.indexOf('{"fuzz":'));
  if (!json) {
    tally.push({ part: "fuzz", result: `no report (exit ${code}): ${output.slice(-800)}`, ok: false });
    return;
  }
  const report = JSON.parse(json).fuzz as Record<string, { sent: number; accepted: number; refused: number; known500: number; problems: number }>;
  const sum = (k: "sent" | "accepted" | "refused" | "known500" | "problems") => Object.values(report).reduce((a, r) => a + r[k], 0);
  const endpoints = Object.keys(report).length;
  const known = Object.entries(report)
    .filter(([, r]) => r.known500 > 0)
    .map(([k, r]) => `${k} ×${r.known500}`);
  tally.push({
    part: "fuzz",
    result:
      `${endpoints} POST endpoints, ${sum("sent").toLocaleString("en-US")} requests: ${sum("accepted")} accepted, ${sum("refused")} refused with a clear 4xx, ` +
      `${sum("problems")} problems (5xx, unclear error, or a refusal that wrote)` +
      (known.length ? `; known bugs, NUL byte or lone surrogate → 500: ${sum("known500")} on ${known.join(", ")}` : ""),
    ok: code === 0,
  });
  if (code !== 0)
    console.log(
      output
        .split("\n")
        .filter((l) => /^\s*\+ |AssertionError/.test(l))
        .slice(0, 30)
        .join("\n"),
    );
}

async function authz() {
  progress("authorization matrix: every endpoint × {anonymous, agent, another agent, human}, and cross-site POSTs");
  const { code, output } = await vitest("test/authz-matrix.test.ts", {});
  const line = output.split("\n").find((l) => l.includes('{"authz":'));
  const report = line ? (JSON.parse(line.slice(line.indexOf('{"authz":'))).authz as { endpoints: number; cells: number; mismatches: number; fiveHundreds: number }) : null;
  const cells = report ? `${report.endpoints} endpoints × 4 callers = ${report.cells} cells, ${report.mismatches} off the table, ${report.fiveHundreds} 5xx` : "no report";
  tally.push({
    part: "authz matrix",
    result: `${cells}${code === 0 ? "; every cross-site or non-JSON cookie POST refused (403), nothing changed" : ""}`,
    ok: code === 0 && report !== null,
  });
  if (code !== 0)
    console.log(
      output
        .split("\n")
        .filter((l) => /^\s*\+ |AssertionError/.test(l))
        .slice(0, 30)
        .join("\n"),
    );
}

async function kills() {
  let killed = 0;
  let lost = 0;
  let duplicated = 0;
  let lateRefused = 0;
  let runs = 0;
  let failed = 0;
  while (killed < KILLS) {
    runs++;
    progress(`worker SIGKILLs: fault-injection run ${runs} (${killed}/${KILLS} kills so far)`);
    const { code, output } = await vitest("domain/tasks/fault-injection.test.ts", {});
    const m = /fault injection: (\d+) tasks, (\d+) kills .*?(\d+) late writes refused, (\d+) items lost, (\d+) duplicated/.exec(output);
    if (code !== 0 || !m) {
      failed++;
      console.log(
        output
          .split("\n")
          .filter((l) => /AssertionError|Error|expected/.test(l))
          .slice(0, 20)
          .join("\n"),
      );
      if (failed >= 2) break;
      continue;
    }
    killed += Number(m[2]);
    lateRefused += Number(m[3]);
    lost += Number(m[4]);
    duplicated += Number(m[5]);
  }
  tally.push({
    part: "worker SIGKILLs",
    result: `${killed} workers SIGKILLed over ${runs} runs: every task completed, ${lost} items lost, ${duplicated} duplicated, ${lateRefused} late writes with an old fence refused${failed ? `, ${failed} failed runs` : ""}`,
    ok: failed === 0 && killed >= KILLS && lost === 0 && duplicated === 0,
  });
}

async function serverKills() {
  const part = "app-server SIGKILLs";
  progress(`${part}: quorum start and its Postgres SIGKILLed ${SERVER_KILLS} times under load from 8 agents, restarted on the same data`);
  type Report = { cycles: number; acked: number; refused: number; inFlightAtKill: number; inFlightCommitted: number; lost: number; gaps: number; torn: number; unexpected: number };
  const got = await reported<Report>(part, playwright("e2e/server-kill.spec.ts", { CHAOS_SERVER_KILLS: String(SERVER_KILLS) }), "serverKills");
  if (!got) return;
  const { code, output, r } = got;
  tally.push({
    part,
    result:
      `${r.cycles} SIGKILLs of the app and its Postgres under load from 8 agents and a human: ${r.acked} posts acknowledged, ${r.refused} refused by the gates, ` +
      `${r.inFlightAtKill} in flight at the kills (${r.inFlightCommitted} of them committed); after the restarts ${r.lost} acknowledged writes lost, ` +
      `${r.gaps} rooms with seq gaps, ${r.torn} torn (a message without its MessageSent or back, a last seq ≠ the highest)` +
      (r.unexpected ? `, ${r.unexpected} answers other than 201/409/429` : ""),
    ok: code === 0 && r.cycles === SERVER_KILLS && r.lost === 0 && r.gaps === 0 && r.torn === 0 && r.unexpected === 0,
  });
  if (code !== 0) console.log(failureLines(output));
}

async function xss() {
  const part = "XSS probes";
  progress(`${part}: hostile HTML and script in every field a user or agent writes, every page opened in Chromium`);
  const got = await reported<{ fields: number; payloads: number; pagesProbed: number; pagesWithFindings: number }>(part, playwright("e2e/xss.spec.ts", {}), "xss");
  if (!got) return;
  const { code, output, r } = got;
  tally.push({
    part,
    result:
      `${r.fields} hostile texts (${r.payloads} payloads: img onerror, script, svg onload, javascript: link, attribute breakout with iframe) in bodies, payloads, ` +
      `tasks, ADRs, decisions, commitments, reservations, memory and a role; markup in names refused (400); ${r.pagesProbed} page views in Chromium, ` +
      `${r.pagesWithFindings} with a script run, a dialog or injected markup${code === 0 ? "; every text shown literally" : ""}`,
    ok: code === 0 && r.pagesProbed > 0 && r.pagesWithFindings === 0,
  });
  if (code !== 0) console.log(failureLines(output));
}

async function resume() {
  const part = "agent runs killed";
  progress(`${part}: scripted agent runs SIGKILLed mid-turn (≥ ${RESUME_KILLS} kills) and resumed`);
  type Report = { runs: number; killedMidRun: number; killedAfterEnd: number; resumes: number; identical: number };
  const got = await reported<Report>(part, vitest("agents/resume.test.ts", { CRASH_RESUME_KILLS: String(RESUME_KILLS) }), "crashResume");
  if (!got) return;
  const { code, output, r } = got;
  tally.push({
    part,
    result:
      `${r.killedMidRun} agent runs SIGKILLed mid-turn over ${r.runs} runs (and ${r.killedAfterEnd} kills after a run had ended), ${r.resumes} resumes; ` +
      `${r.identical} of ${r.runs} runs ended exactly as an uninterrupted run (result and event kinds)`,
    ok: code === 0 && r.identical === r.runs && r.killedMidRun >= RESUME_KILLS,
  });
  if (code !== 0) console.log(failureLines(output));
}

async function backDoors() {
  const part = "back doors";
  progress(`${part}: issue 14's attacks around the gates, against a real quorum start with its embedded Postgres`);
  type Report = Record<string, { attack: string; held: boolean; detail: string }>;
  const got = await reported<Report>(part, playwright("e2e/back-doors.spec.ts", {}), "backDoors");
  if (!got) return;
  const { code, output, r } = got;
  const held = Object.values(r).filter((f) => f.held).length;
  tally.push({
    part,
    result: `${held} of ${Object.keys(r).length} doors held${code === 0 ? "" : " (the spec failed: see below)"}`,
    ok: code === 0 && held === Object.keys(r).length,
  });
  for (const [id, finding] of Object.entries(r)) tally.push({ part: `  ${id}`, result: `${finding.attack} → ${finding.detail}`, ok: finding.held });
  if (code !== 0) console.log(failureLines(output));
}

async function hosts() {
  const part = "hosts";
  progress(`${part}: Postgres, 3 app instances and 4 agent hosts in network namespaces; an app host and an agent host cut off, Postgres restarted`);
  const distDir = process.env.HOSTS_DIST_DIR ?? ".next-hosts";
  const { hostsTally, runHosts } = await import("./hosts/run-hosts");
  if (!buildIsFresh(distDir)) {
    progress(`  building the web app into ${distDir} (a minute or two)`);
    const { code, output } = await runLogged("next build", [join("node_modules", "next", "dist", "bin", "next"), "build"], { NEXT_DIST_DIR: distDir });
    if (code !== 0) return void tally.push({ part, result: `next build failed: ${output.slice(-800)}`, ok: false });
  }
  try {
    const report = await runHosts({ ...HOSTS_FULL, distDir, log: (line) => progress(`  ${line}`) });
    tally.push(...hostsTally(report));
  } catch (error) {
    tally.push({ part, result: `the run failed: ${(error as Error).message.slice(0, 1500)}`, ok: false });
  }
}
async function models() {
  const part = "models";
  progress(`${part}: the first flight against a model server that fails (500 then recovers, 401, malformed JSON, prose, a stall, invalid tool arguments)`);
  type Case = { outcome: string; requests: number; spent: number; withinBudget: boolean; stuck: number; told: number; finished: boolean | null };
  const got = await reported<Record<string, Case>>(part, vitest("agents/team/model-drills.test.ts", {}), "models");
  if (!got) return;
  const { code, output, r } = got;
  tally.push({ part, result: `${Object.keys(r).length} failure drills${code === 0 ? "" : " (the drills failed: see below)"}`, ok: code === 0 });
  for (const [name, c] of Object.entries(r)) {
    const ok = c.withinBudget && c.stuck === 0 && c.told === 1 && c.finished !== false;
    tally.push({
      part: `  ${name}`,
      result:
        `the first run ${c.outcome === "failed" ? "failed" : `ended ${c.outcome}`} after ${c.requests} ${c.requests === 1 ? "request" : "requests"}; spent ${c.spent} tokens (${c.withinBudget ? "within budget" : "OVER budget"}), ` +
        `${c.stuck} tasks left in progress, the human told ${c.told === 1 ? "once" : `${c.told} times`}` +
        (c.finished === null ? "" : c.finished ? "; finished green once the server recovered and the human retried" : "; did NOT finish after the recovery"),
      ok,
    });
  }
  if (code !== 0) console.log(failureLines(output));
}

const HOSTS_FULL = { apps: 3, agentHosts: 4, agentsPerHost: 3, tasks: 120, items: 8, itemPaceMs: 150, leaseSeconds: 10, cutSeconds: 40, benchSeconds: 8 };

if (wanted("backdoors")) await backDoors();
if (wanted("authz")) await authz();
if (wanted("fuzz")) await fuzz();
if (wanted("kills")) await kills();
if (wanted("serverkill")) await serverKills();
if (wanted("xss")) await xss();
if (wanted("resume")) await resume();
if (wanted("hosts")) await hosts();
if (wanted("models")) await models();

console.log("\nchaos tally");
for (const line of tally) console.log(`  ${line.skipped ? "SKIP" : line.ok ? "PASS" : "FAIL"}  ${line.part.padEnd(22)} ${line.result}`);
console.log(`  (${Math.round((performance.now() - started) / 1000)} s)`);
process.exit(tally.every((l) => l.ok) ? 0 : 1);
