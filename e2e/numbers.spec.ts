// Numbers that add up (DESIGN §11, "What the numbers mean"): after two flights, every place a budget, a spend
// or presence is shown — the top strip, the Bill, the Agents page, an agent's page, the Room — says what the
// API says, and a flight that ends leaves the hub's allowance.
import { formatTokens } from "../components/bill/format";
import { expect, test, type ResponseBody } from "./fixtures";

type Flight = {
  createdByName: string;
  id: string;
  number: number;
  finished: boolean;
  stage: string;
  goalTask: { number: number };
  budget: { allowance: number; spent: number } | null;
};

test("after two flights every place a budget or spend is shown agrees, and one that ends leaves the hub's allowance", async ({ page, signIn, cli, snap }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page);
  const goals: number[] = [];
  for (let i = 0; i < 2; i++) goals.push(Number(/goal task #(\d+)/.exec(await cli(["demo"]))?.[1]));
  const get = async (path: string): Promise<ResponseBody> => (await page.request.get(path)).json();
  const flights = async (): Promise<Flight[]> => (await get("/api/flights")).items;
  const ours = async () => (await flights()).filter((f) => goals.includes(f.goalTask.number));
  // The CLI's demo flights are its local human's: sign in as them, who may close one.
  await signIn(page, (await ours())[0].createdByName);
  // Both come back for review, having spent (the scripted team's estimates: simulated tokens).
  await expect.poll(async () => (await ours()).filter((f) => f.stage === "in_review" && (f.budget?.spent ?? 0) > 0).length, { timeout: 150_000 }).toBe(2);

  // The API's one definition: the hub's allowance is the open flights', its spend theirs.
  const hubAgrees = async () => {
    const [bill, all] = await Promise.all([get("/api/bill"), flights()]);
    const open = all.filter((f) => !f.finished && f.budget);
    return (
      bill.hub.openFlights === open.length &&
      bill.hub.allowance === open.reduce((n, f) => n + f.budget!.allowance, 0) &&
      bill.hub.spent === open.reduce((n, f) => n + f.budget!.spent, 0)
    );
  };
  await expect.poll(hubAgrees, { timeout: 30_000 }).toBe(true);

  // The top strip says the same, in words; other specs' flights may spend meanwhile, so each look is against a fresh answer.
  const strip = page.getByTestId("hub-allowance");
  const stripAgrees = async () => {
    const { hub } = await get("/api/bill");
    return (
      (await strip.getAttribute("title")) ===
      `${hub.openFlights} open flight${hub.openFlights === 1 ? "" : "s"}: ${formatTokens(hub.spent)} of their ${formatTokens(hub.allowance)} tokens used`
    );
  };
  await expect.poll(stripAgrees, { timeout: 30_000 }).toBe(true);
  await expect(page.getByTestId("team-spend")).toContainText("simulated");

  // The Bill: its header, each of our flights' row and the per-agent table.
  await page.getByRole("link", { name: "Bill", exact: true }).click();
  const bill = await get("/api/bill");
  expect(bill.total.simulatedTokens).toBeGreaterThan(0);
  await expect.poll(async () => Number(await page.getByTestId("bill-simulated").getAttribute("data-tokens")) > 0).toBe(true);
  await expect.poll(async () => Number(await page.getByTestId("hub-left").getAttribute("data-tokens")) === (await get("/api/bill")).hub.left, { timeout: 30_000 }).toBe(true);
  for (const flight of await ours()) {
    const row = page.getByTestId("bill-flights-row").filter({ hasText: `Flight ${flight.number}` });
    await expect(row.locator('td[data-label="Allowance"]')).toHaveText(formatTokens(flight.budget!.allowance));
    await expect(row.locator('td[data-label="Spent"]')).toHaveText(formatTokens(flight.budget!.spent));
  }
  await expect(page.locator('[data-testid="bill-agent-row"][data-agent="quorum"]')).toHaveCount(0);
  await snap(page, "numbers-bill-1440");

  // A coder that worked: its spend is the same on the Bill, the Agents page and its own page.
  const runs = await get("/api/bill/runs?limit=200");
  const coder: string = runs.items.find((r: { agentName: string }) => /^coder(-\d+)?$/.test(r.agentName)).agentName;
  const tokensOf = async () => (await get("/api/bill")).agents.find((a: { agentName: string }) => a.agentName === coder).tokens;
  await expect
    .poll(
      async () =>
        Number(await page.locator(`[data-testid="bill-agent-row"][data-agent="${coder}"]`).getByTestId("agent-tokens").getAttribute("data-tokens")) === (await tokensOf()),
      {
        timeout: 30_000,
      },
    )
    .toBe(true);
  await page.getByRole("link", { name: "Agents", exact: true }).click();
  const rosterRow = page.locator(`[data-testid="roster-row"][data-agent="${coder}"]`);
  await expect.poll(async () => Number(await rosterRow.getByTestId("roster-spend").getAttribute("data-tokens")) === (await tokensOf()), { timeout: 30_000 }).toBe(true);
  // Presence, one rule: the top strip counts the agents the Agents page shows present.
  const presentOnPage = async () =>
    rosterRow
      .page()
      .locator('[data-testid="roster-row"]')
      .filter({ hasText: /present/ })
      .count();
  const stripCount = async () => Number(await page.getByTestId("agents-present").getAttribute("data-present"));
  await expect.poll(async () => (await presentOnPage()) === (await stripCount()), { timeout: 30_000 }).toBe(true);
  await rosterRow.getByRole("link").first().click();
  await expect.poll(async () => Number(await page.getByTestId("agent-spent").getAttribute("data-tokens")) === (await tokensOf()), { timeout: 30_000 }).toBe(true);
  await expect(page.getByRole("heading", { name: "Its own allowance" })).toBeVisible();
  await snap(page, "numbers-agent-1440");

  // In the Room, the human looking is present, as the People panel and the top strip agree.
  await page.getByRole("link", { name: "Room", exact: true }).click();
  const me = (await get("/api/me")).name;
  await expect(page.getByTestId("presence-entry").filter({ hasText: me })).toContainText("● present");

  // One flight ends: the hub's allowance drops by its allowance, in the API and in the top strip.
  const [closing] = await ours();
  const before = (await get("/api/bill")).hub;
  expect((await page.request.post(`/api/flights/${closing.id}/close`, { data: { reason: "Closing one to check the numbers." } })).status()).toBe(200);
  await expect.poll(async () => (await get("/api/bill")).hub.openFlights, { timeout: 30_000 }).toBe(before.openFlights - 1);
  await expect.poll(hubAgrees, { timeout: 30_000 }).toBe(true);
  await expect.poll(stripAgrees, { timeout: 30_000 }).toBe(true);
  // The Board folds the ended flight under "N finished"; unfolded, it reads Closed.
  await page.getByRole("link", { name: /^Board/ }).click();
  await page.getByTestId("flights-finished").click();
  await expect(page.getByTestId("flights-finished")).toHaveText(/^Hide \d+ finished$/);
  await snap(page, "numbers-board-finished-1440");
  await page.getByRole("link", { name: "Room", exact: true }).click();
  await page.setViewportSize({ width: 390, height: 844 });
  await snap(page, "numbers-room-390");
});
