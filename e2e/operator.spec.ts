import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { join } from "node:path";
import { expect, test } from "./fixtures";
import { root, serverEnv } from "./server";

test("a human stops a running run from its timeline; it ends at its next turn boundary, and Resume asks the team to carry it on", async ({ page, signIn, registerAgent, snap }) => {
  const agent = await registerAgent(undefined, "coder");
  const env = serverEnv(process.env.QUORUM_E2E_HOME!, Number(process.env.QUORUM_E2E_PORT));
  // Its one tool waits until the human asks to stop (at most 50 s), and the run stops when the tool returns.
  const child = spawn(join(root, "node_modules", ".bin", "tsx"), [join(root, "test/processes/slow-run.ts"), agent.id, "50"], {
    cwd: root,
    env,
    stdio: ["ignore", "pipe", "inherit"],
  });
  try {
    const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
    const runId = (await lines.next()).value as string;
    expect(runId).toMatch(/^run_[0-9a-f]{16}$/);

    await signIn(page);
    await page.goto(`/journal?run=${runId}&view=timeline`);
    await page.getByRole("button", { name: "Stop run" }).click();
    await page.getByLabel("Reason for stopping the run").fill("wrong approach, start over");
    await page.getByRole("button", { name: "Stop at the next turn" }).click();
    await expect(page.getByText(/asked it to stop just now: wrong approach, start over/)).toBeVisible();
    await expect(page.getByTestId("run-result")).toContainText("Ended stopped: an operator asked to stop", { timeout: 30_000 });
    await expect(page.getByRole("button", { name: "Stop run" })).toHaveCount(0);
    await snap(page, "run-stopped");
    expect(JSON.parse((await lines.next()).value as string)).toMatchObject({ status: "stopped", turns: 1 });

    // The pause is the human's to end: Resume journals the request, the header shows it live, and the button
    // goes (a second request would be the same one). The team worker hosting the agent carries the run on.
    await page.getByRole("button", { name: "Resume run" }).click();
    await expect(page.getByTestId("resume-request")).toContainText(/asked to resume it just now: .*resumed it — the team's worker carries it on from its journal\./);
    await expect(page.getByRole("button", { name: "Resume run" })).toHaveCount(0);
    const journal = await (await page.request.get(`/api/journal?run=${runId}`)).json();
    expect(journal.items.filter((e: { kind: string }) => e.kind === "ResumeRequested")).toHaveLength(1);
    await snap(page, "run-resume-requested");
  } finally {
    if (child.exitCode === null) child.kill("SIGKILL");
  }
});
