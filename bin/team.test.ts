// Who speaks for the demo: Quorum's system principal, naming the human who started it — never the human
// themself; the first flight waits for someone to sign in (the team's pace, QUORUM_PACE_MS: domain/config.test.ts).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../db/client";
import { systemClock } from "../domain/clock";
import { hasAnyFlight } from "../domain/flights/launch";
import { issueSignInLink, redeemSignInLink } from "../domain/principals/sign-in";
import { listMessages } from "../domain/rooms/list-messages";
import { makeHuman } from "../test/helpers";
import { launchDemo, launchDemoOnFirstSignIn } from "./team";

const home = process.env.QUORUM_HOME;
beforeAll(() => {
  process.env.QUORUM_HOME = mkdtempSync(join(tmpdir(), "quorum-team-test-"));
});
afterAll(() => {
  process.env.QUORUM_HOME = home;
});

async function lastInGeneral(viewer: Awaited<ReturnType<typeof makeHuman>>) {
  const page = await listMessages(getDb(), viewer, "general", {});
  return page.items[page.items.length - 1];
}

describe("the demo flight", () => {
  it("waits for the first sign-in, then Quorum (not the human) asks the orchestrator, naming who signed in", async () => {
    const operator = await makeHuman();
    const abort = new AbortController();
    const launching = launchDemoOnFirstSignIn(process.env.DATABASE_URL!, operator.name, abort.signal);
    await new Promise((r) => setTimeout(r, 300));
    expect(await hasAnyFlight(getDb())).toBe(false);

    const ada = await makeHuman();
    await redeemSignInLink(getDb(), await issueSignInLink(getDb(), ada, systemClock), systemClock);
    const launched = await launching;
    expect(launched).not.toBeNull();
    const request = await lastInGeneral(operator);
    expect(request).toMatchObject({ senderName: "quorum", senderKind: "system", performative: "REQUEST", toName: "orchestrator", taskId: launched!.goalTask.id });
    expect(request.body).toMatch(new RegExp(`^Demo flight started as ${ada.name} signed in, goal task #${launched!.goalTask.number}\\. @orchestrator `));
    // The goal is still the human's to approve.
    expect(launched!.goalTask.approverId).toBe(operator.id);

    // `quorum demo` says it came from the CLI, and still speaks as Quorum.
    const again = await launchDemo(getDb(), operator.name);
    const second = await lastInGeneral(operator);
    expect(second).toMatchObject({ senderKind: "system", taskId: again!.goalTask.id });
    expect(second.body).toMatch(new RegExp(`^Demo flight started by ${operator.name} from the CLI, goal task #${again!.goalTask.number}\\.`));
  });

  it("a stopped wait launches nothing", async () => {
    const abort = new AbortController();
    const launching = launchDemoOnFirstSignIn(process.env.DATABASE_URL!, "nobody", abort.signal);
    abort.abort();
    expect(await launching).toBeNull();
  });
});
