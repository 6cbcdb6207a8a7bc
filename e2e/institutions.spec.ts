// Decisions, escalations and commitments as a human sees them: live, in a real browser, against a real server.
import { expect, test, uniqueName } from "./fixtures";

test("a human casts a ballot, sees the escalation arrive live with its badge, and resolves it", async ({ page, signIn, registerAgent, asAgent, snap }) => {
  test.setTimeout(90_000);
  await signIn(page, uniqueName("ada"));
  const [orchestrator, coder] = await Promise.all([registerAgent(uniqueName("orch"), "orchestrator"), registerAgent(uniqueName("coder"))]);
  const orch = asAgent(orchestrator);
  // Other specs escalate on the same hub meanwhile: the badge is held to the count the API gives at each look.
  const escalated = async () => (await orch.get("/api/decisions?status=escalated&limit=1")).body.total as number;
  const badgeAgrees = async () => {
    const count = await escalated();
    const badge = page.getByTestId("escalation-badge");
    return count === 0 ? (await badge.count()) === 0 : (await badge.textContent()) === String(count);
  };
  const question = `Which parser do we keep? ${uniqueName("q")}`;
  const opened = await orch.post("/api/decisions", {
    question,
    options: ["nom", "pest", "hand-written"],
    defaultOption: "hand-written",
    consequence: "we ship the hand-written parser and its known bug",
    quorum: 3,
    timeboxSeconds: 3600,
    escalationTimeboxSeconds: 3600,
  });
  expect(opened.status).toBe(201);

  await page.getByRole("link", { name: /^Decisions/ }).click();
  await expect(page.getByTestId("live-status")).toHaveAttribute("data-status", "live");
  const card = page.getByTestId("decision-card").filter({ hasText: question });
  await expect(card).toBeVisible();
  await card.getByRole("radio", { name: "nom" }).check();
  await card.getByLabel("Your reasoning").fill("Typed combinators make the empty-input fix one line.");
  await card.getByRole("button", { name: "Cast ballot" }).click();
  await expect(card.getByText("You voted")).toBeVisible();
  await expect(card.getByTestId("quorum")).toHaveText("1 of 3 ballots");

  // Two agents split the rest: a three-way tie at quorum escalates at once.
  expect((await asAgent(coder).post(`/api/decisions/${opened.body.id}/ballots`, { option: "pest", reasoning: "a grammar file reads better" })).status).toBe(201);
  expect((await orch.post(`/api/decisions/${opened.body.id}/ballots`, { option: "hand-written", reasoning: "no new dependency" })).status).toBe(201);

  // No reload: the stream brings the badge and the top strip's count.
  await expect.poll(async () => (await page.getByTestId("escalation-badge").count()) > 0 && (await badgeAgrees())).toBe(true);
  await expect.poll(async () => Number(await page.getByTestId("waiting-for-you").locator("strong").textContent())).toBeGreaterThanOrEqual(1);
  await page.getByRole("link", { name: /^Escalations/ }).click();
  const escalation = page.getByTestId("escalation").filter({ hasText: question });
  const envelope = escalation.getByTestId("envelope");
  await expect(envelope.locator("p")).toHaveText([
    `Decide: ${question}`,
    "Tally: nom 1 · pest 1 · hand-written 1 (3 of 3 ballots)",
    "Default: hand-written",
    /^If nobody decides by .* UTC: we ship the hand-written parser and its known bug$/,
  ]);
  await expect(escalation.getByRole("button", { name: /hand-written.*\(default\)/ })).toBeVisible();
  await expect(escalation.getByTestId("countdown")).toContainText("left");
  await snap(page, "escalation");

  // The agents' arguments are one click below the envelope.
  await escalation.getByText(/The agents' arguments \(3 ballots\)/).click();
  await expect(escalation.getByTestId("ballots")).toContainText("a grammar file reads better");

  // A non-default option asks first; a choice can be taken back for 10 s; the outcome shows in place.
  await escalation.getByRole("button", { name: "pest" }).click();
  await escalation.getByRole("button", { name: "Cancel" }).click();
  await escalation.getByRole("button", { name: "pest" }).click();
  await escalation.getByRole("button", { name: "Yes, choose pest" }).click();
  await expect(escalation.getByTestId("pending-choice")).toContainText(/You chose pest — final in \d+ s/);
  await escalation.getByRole("button", { name: "Undo" }).click();
  await expect(escalation.getByRole("button", { name: /hand-written.*\(default\)/ })).toBeVisible();
  expect((await orch.get(`/api/decisions/${opened.body.id}`)).body.status).toBe("escalated");
  await escalation.getByRole("button", { name: "pest" }).click();
  await escalation.getByRole("button", { name: "Yes, choose pest" }).click();
  await expect(escalation.getByTestId("outcome")).toContainText("Decided: pest", { timeout: 20_000 });
  await expect(page.getByTestId("toast").filter({ hasText: `D-${opened.body.number} decided: pest.` })).toBeVisible();
  await expect(escalation).toHaveCount(0, { timeout: 15_000 });
  await expect.poll(badgeAgrees).toBe(true);
  const decided = await orch.get(`/api/decisions/${opened.body.id}`);
  expect(decided.body).toMatchObject({ status: "resolved", outcome: "pest" });
  // Agents cannot resolve: only humans decide escalations.
  expect((await orch.post(`/api/decisions/${opened.body.id}/resolve`, { option: "nom" })).status).toBe(403);
});

test("the commitments page draws the dependency graph with its critical path and an overdue blocker", async ({ page, signIn, registerAgent, asAgent, snap }) => {
  await signIn(page, uniqueName("grace"));
  const [coder, reviewer] = await Promise.all([registerAgent(uniqueName("coder")), registerAgent(uniqueName("reviewer"), "reviewer")]);
  const take = async (agent: typeof coder, what: string, dueInMs: number) => {
    const api = asAgent(agent);
    const dueAt = new Date(Date.now() + dueInMs).toISOString();
    const proposed = await api.post("/api/commitments", { what, dueAt });
    expect(proposed.status).toBe(201);
    expect((await api.post(`/api/commitments/${proposed.body.id}/confirm`)).status).toBe(200);
    return { ...proposed.body, dueAt } as { id: string; number: number; dueAt: string };
  };
  const schema = await take(coder, "Write the schema migration", 1_500);
  const parser = await take(coder, "Fix parse('') on empty input", 3_600_000);
  const review = await take(reviewer, "Review the parser diff", 5_400_000);
  const docs = await take(reviewer, "Update the README", 1_800_000);
  const release = await take(coder, "Cut the release", 7_200_000);
  const link = async (agent: typeof coder, blocked: { id: string }, blocker: { id: string }) =>
    expect((await asAgent(agent).post(`/api/commitments/${blocked.id}/dependencies`, { blockerId: blocker.id })).status).toBe(201);
  await link(coder, parser, schema);
  await link(reviewer, review, parser);
  await link(coder, release, review);
  await link(coder, release, docs);
  const cycle = await asAgent(coder).post(`/api/commitments/${schema.id}/dependencies`, { blockerId: release.id });
  expect(cycle.body).toMatchObject({ error: "cycle", path: [schema.id, release.id, review.id, parser.id, schema.id] });
  // The schema migration's due date passes: it is now an overdue blocker on the critical path.
  await expect.poll(() => Date.now() > Date.parse(schema.dueAt)).toBe(true);

  await page.getByRole("link", { name: "Commitments" }).click();
  const graph = page.getByTestId("dependency-graph");
  await expect(graph).toBeVisible();
  const node = (c: { number: number }) => graph.locator(`[data-testid="graph-node"][data-number="${c.number}"]`);
  await expect(node(schema)).toHaveAttribute("data-overdue", "true");
  await expect(node(schema)).toContainText("overdue");
  for (const c of [schema, parser, review, release]) await expect(node(c)).toHaveAttribute("data-critical", "true");
  await expect(node(docs)).not.toHaveAttribute("data-critical", "true");
  await expect(graph.locator("[data-testid=graph-edge][data-critical]")).toHaveCount(3);
  await expect(page.locator(`[data-testid="ledger-row"][data-number="${schema.number}"]`)).toHaveAttribute("data-overdue", "true");
  await snap(page, "dependency-graph");

  // A new dependency appears without a reload.
  await link(reviewer, docs, schema);
  await expect(graph.getByTestId("graph-edge")).toHaveCount(5);

  await page.getByTestId("owner-filter").selectOption({ label: reviewer.name });
  await expect(page.getByTestId("ledger-row")).toHaveCount(2);
  await page.getByTestId("status-filter").selectOption("fulfilled");
  await expect(page.getByText("No commitments match these filters.")).toBeVisible();
});
