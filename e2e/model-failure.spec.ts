// A live model that fails, as a new user meets it: `quorum start` with QUORUM_MODEL pointing at a server
// that answers HTTP 500. The worker's check says so, the goal comes back to the human under "waiting for
// you" with the reason, the top strip shows the model failing, Quorum says it once in the Room — and
// "Run scripted" carries the flight on to the human's review.
import { startModelServer } from "../test/fixtures/model-server";
import { expect, test } from "./fixtures";
import { newHome, standInModel, startQuorum, stopQuorum } from "./server";

test("a failing model hands the goal back to its human, who runs it scripted to review", async ({ page }) => {
  test.setTimeout(300_000);
  const model = await startModelServer({ mode: "status", status: 500 });
  let server: Awaited<ReturnType<typeof startQuorum>> | undefined;
  try {
    server = await startQuorum(newHome(), undefined, { ...standInModel(model.url), QUORUM_FLIGHT: "now" });
    const output = server.output;
    await expect.poll(output, { timeout: 60_000 }).toContain(`Model check: QUORUM_OPENAI_BASE_URL=${model.url}/v1 answered HTTP 500 (overloaded or failing)`);
    await page.goto(server.signInUrl);

    // The top strip says the model fails; what waits for the human says which goal, why, and what to do.
    await expect(page.getByTestId("model-state")).toHaveAttribute("data-state", "failing", { timeout: 90_000 });
    await expect(page.getByTestId("model-state")).toContainText("openai-compatible:stand-in failing since");
    await page.getByTestId("waiting-for-you").click();
    const item = page.getByTestId("waiting-item").filter({ has: page.getByTestId("handback-actions") });
    await expect(item).toContainText(/Goal #\d+ is back with you/);
    await expect(item).toContainText("HTTP 500");
    await expect(item.getByRole("button", { name: "Retry" })).toBeVisible();
    await expect(item.getByRole("link", { name: "Cancel…" })).toHaveAttribute("href", /\/board\?task=/);

    // Quorum told the human once in the Room, naming the model, the error and what to do.
    const notice = page.getByTestId("message").filter({ hasText: "The model openai-compatible:stand-in failed" });
    await expect(notice).toHaveCount(1);
    await expect(notice).toContainText("What to do: the server is overloaded or failing: retry later, or run the flight scripted");

    await item.getByRole("button", { name: "Run scripted" }).click();
    await expect(page.getByText(/runs again, scripted/)).toBeVisible();
    // The flight carries on with the roles' scripts, to the human's review.
    await expect(page.getByTestId("waiting-for-you")).toContainText("1", { timeout: 120_000 });
    await page.getByTestId("waiting-for-you").click();
    await expect(page.getByTestId("waiting-item").filter({ hasText: /Review #\d+/ })).toBeVisible({ timeout: 120_000 });
    await expect(page.getByTestId("handback-actions")).toHaveCount(0);
  } finally {
    if (server) await stopQuorum(server);
    await model.stop();
  }
});
