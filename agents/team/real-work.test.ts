// The team takes real work: flights on fixture repositories the tests make, as a user's repository would be,
// thought through the stand-in model server (a separate process speaking the OpenAI and the Anthropic wire).
// The orchestrator looks at the repository and plans; coders work at once, each task on its own branch; the
// work lands on quorum/flight-<n> in the user's repository and nothing else of theirs changes.
import { execFileSync } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { fly, lastModelServer, lastTestReport, liveModel, stopModelServers, suiteOn } from "../../test/fixtures/flying";
import { getDb } from "../../db/client";
import { events, flights, tasks } from "../../db/schema";
import { PASSWORDS_FILE } from "../../db/passwords-file";
import { systemClock } from "../../domain/clock";
import { quorumHomePath } from "../../domain/config";
import { launchFlight } from "../../domain/flights/launch";
import { readTaskDiff } from "../../domain/flights/task-diff";
import { acceptingReviewer, conflictRepo, dependentPairRepo, probingRepo, pythonRepo, replanRepo, SANDBOX_PROBES, twoFailuresRepo } from "../../test/fixtures/repos";
import { checkoutState, flightTaskIds, startWorker, until } from "../../test/fixtures/team";
import { makeHuman } from "../../test/helpers";
import { ensureTeam } from "./team";

afterEach(stopModelServers);

async function journalOf(flightId: string, kinds: string[]) {
  const ids = await flightTaskIds(flightId);
  return getDb()
    .select()
    .from(events)
    .where(and(inArray(events.taskId, ids), inArray(events.kind, kinds)))
    .orderBy(asc(events.id));
}

describe.each(["openai", "anthropic"] as const)("a flight on your repository, on the %s wire", { timeout: 180_000 }, (wire) => {
  it("plans from the repository, two coders work at once, both land on quorum/flight-N, the suite is green there, and the user's checkout is untouched", async () => {
    const fixture = twoFailuresRepo();
    const before = checkoutState(fixture.repo);
    expect(suiteOn(fixture.repo, "main", ["node", "--test"])).toBe(false);
    const model = await liveModel({ orchestrator: fixture.orchestrator, coder: fixture.coder, reviewer: acceptingReviewer }, wire);
    const { flight, goalTask } = await fly(fixture.repo, fixture.goal, model);
    expect(flight.status).toBe("green");

    // The orchestrator looked before it planned: its requests carried the listing and the tests it read.
    const requests = await lastModelServer().requests();
    const planning = requests.filter((r) => r.role === "orchestrator");
    expect(planning.some((r) => r.texts.some((t) => t.includes("test/clamp.test.js") && t.includes("src/slug.js")))).toBe(true);
    // (a tool's result travels as JSON: the test's source, quotes escaped)
    const readBack = JSON.stringify('assert.equal(slug("Hello World"), "hello-world")').slice(1, -1);
    expect(planning.some((r) => r.texts.some((t) => t.includes(readBack)))).toBe(true);
    expect(planning[0].task).toContain("npm test");
    expect(planning[0].task).not.toMatch(/small JavaScript project/);

    // Two coders held their tasks at the same time: each claim came before the other's submit.
    const journal = await journalOf(flight.id, ["TaskClaimed", "TaskSubmitted", "TaskIntegrated"]);
    const spans = new Map<string, { owner: string; claimed: number; submitted: number }>();
    for (const e of journal) {
      if (!e.taskId || e.taskId === goalTask.id) continue;
      if (e.kind === "TaskClaimed" && !spans.has(e.taskId)) spans.set(e.taskId, { owner: e.actor!, claimed: e.id, submitted: Number.POSITIVE_INFINITY });
      if (e.kind === "TaskSubmitted") spans.get(e.taskId)!.submitted = Math.min(spans.get(e.taskId)!.submitted, e.id);
    }
    const [a, b] = [...spans.values()];
    expect(spans.size).toBe(2);
    expect(a.owner).not.toBe(b.owner);
    expect(a.claimed < b.submitted && b.claimed < a.submitted).toBe(true);
    expect(journal.filter((e) => e.kind === "TaskIntegrated").map((e) => (e.data as { branch: string }).branch)).toEqual([flight.branch, flight.branch]);

    // The work is the branch in the user's repository; their HEAD, branch and work tree are as they were.
    expect(suiteOn(fixture.repo, flight.branch!, ["node", "--test"])).toBe(true);
    expect(checkoutState(fixture.repo)).toEqual(before);
    expect(suiteOn(fixture.repo, "main", ["node", "--test"])).toBe(false);

    // The goal waits for its human, with the branch's diff against the commit the flight started from.
    const diff = await readTaskDiff(getDb(), goalTask.id);
    expect(diff.source).toBe(`${flight.branch} against the commit the flight started from (${before.head.slice(0, 7)})`);
    expect(diff.files.map((f) => f.path).sort()).toEqual(["src/clamp.js", "src/slug.js"]);
    const [submitted] = await getDb()
      .select()
      .from(events)
      .where(and(eq(events.taskId, goalTask.id), eq(events.kind, "TaskSubmitted")));
    expect((submitted.data as { summary: string }).summary).toContain(`git -C ${fixture.repo} merge ${flight.branch}`);
  });
});

describe("flights on other repositories", { timeout: 180_000 }, () => {
  it("a Python repository tested with python3 -m unittest: the command is detected and the flight goes green", async () => {
    const fixture = pythonRepo();
    const model = await liveModel({ orchestrator: fixture.orchestrator, coder: fixture.coder, reviewer: acceptingReviewer }, "openai");
    const { flight } = await fly(fixture.repo, fixture.goal, model);
    expect(flight.testCommand).toBe("python3 -m unittest");
    expect(flight.status).toBe("green");
    expect(suiteOn(fixture.repo, flight.branch!, ["python3", "-m", "unittest"])).toBe(true);
    expect(suiteOn(fixture.repo, "main", ["python3", "-m", "unittest"])).toBe(false);
  });

  it("a repository whose suite probes the sandbox: every reach is refused, and the flight still goes green", async () => {
    const outsideDir = mkdtempSync(join(tmpdir(), "quorum-outside-"));
    const passwordsFile = join(quorumHomePath(), PASSWORDS_FILE);
    writeFileSync(passwordsFile, JSON.stringify({ postgres: "planted-superuser-password", quorum_app: "planted-app-password" }));
    const app = createServer((_, res) => res.end("the hub")).listen(0, "127.0.0.1");
    await once(app, "listening");
    try {
      const targets = { passwordsFile, outsideDir, databasePort: Number(new URL(process.env.DATABASE_URL!).port || 5432), appPort: (app.address() as AddressInfo).port };
      const fixture = probingRepo(targets);
      const model = await liveModel({ orchestrator: fixture.orchestrator, coder: fixture.coder, reviewer: acceptingReviewer }, "openai");
      const { flight } = await fly(fixture.repo, fixture.goal, model);
      expect(flight.status).toBe("green");
      // The suite's own report, as journalled: each probe is a test that passes only when its reach is refused.
      const last = await lastTestReport();
      for (const probe of SANDBOX_PROBES) expect(last, probe).toContain(probe);
      expect(last).not.toContain("not ok");
      expect(existsSync(join(outsideDir, "escaped.txt"))).toBe(false);
      expect(execFileSync("git", ["-C", fixture.repo, "log", "--all", "--format=%s"], { encoding: "utf8" })).not.toContain("sneaked in");
    } finally {
      app.close();
    }
  });

  it("a task that depends on another is not claimed before the other is done and integrated", async () => {
    const fixture = dependentPairRepo();
    const model = await liveModel({ orchestrator: fixture.orchestrator, coder: fixture.coder, reviewer: acceptingReviewer }, "anthropic");
    const { flight } = await fly(fixture.repo, fixture.goal, model);
    expect(flight.status).toBe("green");
    const journal = await journalOf(flight.id, ["TaskCreated", "TaskClaimed", "TaskIntegrated"]);
    const created = journal.filter((e) => e.kind === "TaskCreated" && (e.data as { parentId: string | null }).parentId !== null);
    const [first, second] = created;
    expect((second.data as { dependsOn?: string[] }).dependsOn).toEqual([first.taskId]);
    const integratedFirst = journal.find((e) => e.kind === "TaskIntegrated" && e.taskId === first.taskId)!;
    const claimedSecond = journal.find((e) => e.kind === "TaskClaimed" && e.taskId === second.taskId)!;
    expect(claimedSecond.id).toBeGreaterThan(integratedFirst.id);
    expect(suiteOn(fixture.repo, flight.branch!, ["node", "--test"])).toBe(true);
  });

  it("refuses to integrate onto a flight branch that moved by a commit no reviewed task explains, and hands the goal back", async () => {
    const fixture = dependentPairRepo();
    const model = await liveModel({ orchestrator: fixture.orchestrator, coder: fixture.coder, reviewer: acceptingReviewer }, "openai");
    const db = getDb();
    const human = await makeHuman();
    await ensureTeam(db, systemClock, 2);
    const { flight, goalTask } = await launchFlight(db, human, { goal: fixture.goal, repo: fixture.repo, mode: model.name }, systemClock);
    const team = startWorker({ model, coders: 2 });
    try {
      // Once the first task is integrated, a commit lands on the flight's branch in the team's clone that no task made.
      await until("the first integration", async () => (await journalOf(flight.id, ["TaskIntegrated"])).length > 0);
      const [row] = await db.select().from(flights).where(eq(flights.id, flight.id));
      const git = (...args: string[]) => execFileSync("git", ["-C", row.repo, "-c", "user.name=Mallory", "-c", "user.email=m@example.com", ...args], { encoding: "utf8" });
      const sneaked = git("commit-tree", "-m", "sneaked onto the branch", "-p", row.branch!, `${row.branch}^{tree}`).trim();
      git("update-ref", `refs/heads/${row.branch}`, sneaked);
      const [refused] = await until("the refusal", async () => {
        const found = await journalOf(flight.id, ["IntegrationRefused"]);
        return found.length ? found : null;
      });
      expect(refused.data).toMatchObject({ branch: row.branch, actual: sneaked, unexplained: ["sneaked onto the branch"] });
      const [after] = await db.select().from(flights).where(eq(flights.id, flight.id));
      expect(after.status).toBe("red");
      const [goal] = await db.select().from(tasks).where(eq(tasks.id, goalTask.id));
      expect(goal).toMatchObject({ status: "ready", ownerId: null });
      // Nothing more is merged while the flight waits for its human.
      expect((await journalOf(flight.id, ["TaskIntegrated"])).length).toBe(1);
      // The orchestrator tells its human after the refusal commits, so the test waits for its word.
      const told = await until("the orchestrator's word", async () => {
        const errors = await db
          .select({ data: events.data })
          .from(events)
          .where(and(eq(events.kind, "MessageSent"), eq(events.taskId, goalTask.id), sql`${events.data}->>'performative' = 'ERROR'`));
        const bodies = errors.map((m) => (m.data as { body: string }).body);
        return bodies.some((body) => body.startsWith("I did not merge")) ? bodies : null;
      });
      expect(told.join("\n")).toContain("“sneaked onto the branch”");
    } finally {
      await team.stop();
    }
  });

  it("a merge conflict sends the task back to its coder with the conflict, and the rework integrates", async () => {
    const fixture = conflictRepo();
    const model = await liveModel({ orchestrator: fixture.orchestrator, coder: fixture.coder, reviewer: acceptingReviewer }, "openai");
    const { flight } = await fly(fixture.repo, fixture.goal, model);
    expect(flight.status).toBe("green");
    const journal = await journalOf(flight.id, ["IntegrationConflicted", "TaskReopened", "TaskClaimed", "TaskIntegrated"]);
    const conflicted = journal.filter((e) => e.kind === "IntegrationConflicted");
    expect(conflicted).toHaveLength(1);
    expect(conflicted[0].data).toMatchObject({ files: ["src/greet.js"], branch: flight.branch });
    const sentBack = conflicted[0].taskId!;
    const after = journal.filter((e) => e.id > conflicted[0].id && e.taskId === sentBack).map((e) => e.kind);
    expect(after).toEqual(["TaskClaimed", "TaskIntegrated"]);
    // Its coder was shown the conflict when it took the task again.
    const requests = await lastModelServer().requests();
    expect(requests.some((r) => r.role === "coder" && r.turn === 0 && r.task.includes("conflicted in:\nsrc/greet.js"))).toBe(true);
    expect(suiteOn(fixture.repo, flight.branch!, ["node", "--test"])).toBe(true);
  });

  it("a task handed back after its tries is re-planned once: cancelled with an ADR, replaced, and the flight goes green", async () => {
    const fixture = replanRepo();
    const model = await liveModel({ orchestrator: fixture.orchestrator, coder: fixture.coder, reviewer: acceptingReviewer }, "openai");
    const { flight } = await fly(fixture.repo, fixture.goal, model, {}, { releaseCoolDownMs: 0 });
    expect(flight.status).toBe("green");
    const journal = await journalOf(flight.id, ["TaskReleased", "FlightReplanning", "FlightReplanned", "TaskCancelled", "TaskIntegrated"]);
    const released = journal.filter((e) => e.kind === "TaskReleased");
    expect(released).toHaveLength(3);
    expect(released.map((e) => (e.data as { outcome: string; replan?: boolean }).outcome)).toEqual(["inconclusive", "inconclusive", "inconclusive"]);
    expect((released[2].data as { replan?: boolean }).replan).toBe(true);
    const vague = released[0].taskId;
    expect(journal.find((e) => e.kind === "FlightReplanning")).toMatchObject({ taskId: vague, data: { tries: 3, replan: true } });
    expect(journal.find((e) => e.kind === "TaskCancelled")).toMatchObject({ taskId: vague });
    const replanned = journal.find((e) => e.kind === "FlightReplanned")!.data as { cancelled: number[]; tasks: { id: string }[] };
    expect(replanned.tasks).toHaveLength(1);
    expect(journal.filter((e) => e.kind === "TaskIntegrated").map((e) => e.taskId)).toEqual([replanned.tasks[0].id]);
    expect(suiteOn(fixture.repo, flight.branch!, ["node", "--test"])).toBe(true);
  });
});
