// How flights end: Merge brings the reviewed branch into the branch the flight started from, as git would
// (fast-forward or merge commit), and refuses, changing nothing, whatever git would not do cleanly; Close ends
// a flight without merging.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../../db/client";
import { adrs, events, tasks } from "../../db/schema";
import { acceptByHand, commitOnBranch, gitIn, handBackByHand } from "../../test/fixtures/accepted-flight";
import { fixtureRepo } from "../../test/fixtures/repos";
import { makeAgent, makeHuman } from "../../test/helpers";
import { refusalOf } from "../../test/fixtures/refusal";
import { systemClock } from "../clock";
import { closeFlight, mergeFlight } from "./end";
import { launchFlight } from "./launch";
import { ensureTeamMember } from "./team-members";
import { readFlight } from "./view";

const GOAL = "Make parse('') return no rows.";

/** A user's repository: a parser whose empty input is wrong, with a test script. */
const parserRepo = () =>
  fixtureRepo("parser", {
    "package.json": JSON.stringify({ name: "parser", private: true, type: "module", scripts: { test: "node --test" } }),
    "src/parse.js": 'export function parse(text) {\n  return text.split("\\n").map((line) => line.split(","));\n}\n',
    "README.md": "A tiny parser.\n",
  });

/** A flight's REQUEST goes to the team's orchestrator, which must exist. */
async function launchOn(repo: string, human: Awaited<ReturnType<typeof makeHuman>>) {
  await ensureTeamMember(getDb(), "orchestrator", "orchestrator", 1000, systemClock);
  return (await launchFlight(getDb(), human, { goal: GOAL, repo, mode: "scripted" }, systemClock)).flight;
}

async function acceptedFlight(files?: Record<string, string>) {
  const db = getDb();
  const repo = parserRepo();
  const human = await makeHuman();
  const coder = await makeAgent();
  const flight = await launchOn(repo, human);
  const reviewed = await acceptByHand(db, flight, coder, human, files);
  return { db, repo, human, coder, flight, reviewed };
}

const head = (repo: string, ref = "main") => gitIn(repo, ["rev-parse", ref]);

describe("Merge", () => {
  it("fast-forwards the checked-out branch to the reviewed commit, updates the work tree, journals it, and merges once", async () => {
    const { db, repo, human, flight, reviewed } = await acceptedFlight();
    expect((await readFlight(db, flight.id)).stage).toBe("accepted");
    await mergeFlight(db, human, flight.id, systemClock);
    expect(head(repo)).toBe(reviewed);
    expect(readFileSync(join(repo, "src/parse.js"), "utf8")).toContain('text === ""');
    expect(gitIn(repo, ["status", "--porcelain"])).toBe("");
    const view = await readFlight(db, flight.id);
    expect(view).toMatchObject({ stage: "merged", stageWords: "Merged", merged: { commit: reviewed, into: "main" } });
    const [merged] = await db
      .select()
      .from(events)
      .where(and(eq(events.kind, "FlightMerged"), eq(events.taskId, flight.goalTaskId)));
    expect(merged.data).toMatchObject({ how: "fast-forward", into: "main", commit: reviewed });
    expect((await refusalOf(mergeFlight(db, human, flight.id, systemClock))).code).toBe("flight_ended");
  });

  it("makes a merge commit when the branch moved on since the flight started, naming the human when the repository names nobody", async () => {
    const { db, repo, human, flight, reviewed } = await acceptedFlight();
    writeFileSync(join(repo, "README.md"), "A tiny parser, documented further.\n");
    gitIn(repo, ["commit", "-qam", "The user's own work meanwhile"]);
    const theirs = head(repo);
    await mergeFlight(db, human, flight.id, systemClock);
    const parents = gitIn(repo, ["rev-list", "--parents", "-n", "1", "main"]).split(" ").slice(1);
    expect(parents).toEqual([theirs, reviewed]);
    expect(gitIn(repo, ["log", "-1", "--format=%an|%s", "main"])).toBe(`${human.name}|Merge flight ${flight.number}: ${GOAL}`);
    expect(readFileSync(join(repo, "README.md"), "utf8")).toContain("documented further");
    expect(readFileSync(join(repo, "src/parse.js"), "utf8")).toContain('text === ""');
    expect((await readFlight(db, flight.id)).merged?.commit).toBe(head(repo));
  });

  it("is refused with git's reason when uncommitted work would be touched, and leaves the checkout and the flight as they were", async () => {
    const { db, repo, human, flight } = await acceptedFlight();
    const before = head(repo);
    writeFileSync(join(repo, "src/parse.js"), "// the user's unsaved idea\n");
    const error = await refusalOf(mergeFlight(db, human, flight.id, systemClock));
    expect(error.status).toBe(409);
    expect(error.code).toBe("merge_refused");
    expect(error.message).toMatch(/local changes to the following files would be overwritten[\s\S]*src\/parse\.js/);
    expect(head(repo)).toBe(before);
    expect(readFileSync(join(repo, "src/parse.js"), "utf8")).toBe("// the user's unsaved idea\n");
    expect(existsSync(join(repo, ".git", "MERGE_HEAD"))).toBe(false);
    expect((await readFlight(db, flight.id)).stage).toBe("accepted");
    expect(
      await db
        .select()
        .from(events)
        .where(and(eq(events.kind, "FlightMerged"), eq(events.taskId, flight.goalTaskId))),
    ).toEqual([]);
  });

  it("is refused, naming the file, when the merge would conflict; nothing in the checkout changes", async () => {
    const { db, repo, human, flight } = await acceptedFlight();
    writeFileSync(join(repo, "src/parse.js"), "export const parse = () => 'mine';\n");
    gitIn(repo, ["commit", "-qam", "The user's own parse"]);
    const before = head(repo);
    const error = await refusalOf(mergeFlight(db, human, flight.id, systemClock));
    expect(error.code).toBe("merge_refused");
    expect(error.message).toMatch(/would conflict[\s\S]*src\/parse\.js/);
    expect(head(repo)).toBe(before);
    expect(gitIn(repo, ["status", "--porcelain"])).toBe("");
  });

  it("moves a branch that is not checked out by compare-and-swap, leaving the checkout alone", async () => {
    const { db, repo, human, flight, reviewed } = await acceptedFlight();
    gitIn(repo, ["checkout", "-q", "-b", "elsewhere"]);
    await mergeFlight(db, human, flight.id, systemClock);
    expect(head(repo)).toBe(reviewed);
    expect(gitIn(repo, ["symbolic-ref", "--short", "HEAD"])).toBe("elsewhere");
    expect(readFileSync(join(repo, "src/parse.js"), "utf8")).not.toContain('text === ""');
  });

  it("is refused when the flight's branch moved since the review, or the goal is not accepted, or the caller is not the goal's human", async () => {
    const { db, repo, human, coder, flight, reviewed } = await acceptedFlight();
    commitOnBranch(repo, flight.branch!, reviewed, { "extra.js": "// unreviewed\n" }, "Slipped in after the review");
    expect((await refusalOf(mergeFlight(db, human, flight.id, systemClock))).message).toMatch(/not the reviewed/);
    expect((await refusalOf(mergeFlight(db, coder, flight.id, systemClock))).status).toBe(403);
    expect((await refusalOf(mergeFlight(db, await makeHuman(), flight.id, systemClock))).status).toBe(403);

    const inReview = await launchOn(parserRepo(), human);
    await handBackByHand(db, inReview, coder);
    const error = await refusalOf(mergeFlight(db, human, inReview.id, systemClock));
    expect(error.code).toBe("not_accepted");
    expect(error.message).toMatch(/waiting for your review: accept its goal/);
  });
});

describe("Close", () => {
  it("closes an accepted flight without merging, and cancels a goal still in review with an ADR of the reason", async () => {
    const { db, repo, human, flight } = await acceptedFlight();
    const before = head(repo);
    await closeFlight(db, human, flight.id, { reason: "We went another way." }, systemClock);
    expect(await readFlight(db, flight.id)).toMatchObject({ stage: "closed", closed: { reason: "We went another way." } });
    expect(head(repo)).toBe(before);
    expect((await refusalOf(mergeFlight(db, human, flight.id, systemClock))).code).toBe("flight_ended");

    const second = await launchOn(parserRepo(), human);
    await handBackByHand(db, second, await makeAgent());
    await closeFlight(db, human, second.id, { reason: "Not needed after all." }, systemClock);
    const [goal] = await db.select().from(tasks).where(eq(tasks.id, second.goalTaskId));
    expect(goal.status).toBe("cancelled");
    const [adr] = await db.select().from(adrs).where(eq(adrs.taskId, goal.id));
    expect(adr.decision).toBe("Not needed after all.");
  });

  it("is refused while the team still works on the flight", async () => {
    const db = getDb();
    const repo = parserRepo();
    const human = await makeHuman();
    const flight = await launchOn(repo, human);
    expect((await refusalOf(closeFlight(db, human, flight.id, { reason: "Too slow." }, systemClock))).code).toBe("still_flying");
  });
});
