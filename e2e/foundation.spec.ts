// A human signs in through the printed link, talks in the room, and watches it all live.
import { expect, test, uniqueName } from "./fixtures";

test("the sign-in URL printed by `quorum start` signs the local human in, once", async ({ page, browser, snap }) => {
  await page.goto(process.env.QUORUM_E2E_SIGNIN_URL!);
  await expect(page).toHaveURL(/\/room$/);
  await expect(page.getByTestId("signed-in-as")).toContainText("operator");
  await expect(page.getByTestId("live-status")).toHaveAttribute("data-status", "live");
  await snap(page, "signed-in");

  const stranger = await browser.newContext();
  const other = await stranger.newPage();
  await other.goto(process.env.QUORUM_E2E_SIGNIN_URL!);
  await expect(other.getByRole("heading", { name: "Sign in to Quorum" })).toBeVisible();
  await stranger.close();
});

test("a message posted in one browser appears live in another, and in the journal", async ({ page, browser, signIn, snap }) => {
  await signIn(page, uniqueName("ada"));
  const otherContext = await browser.newContext();
  const other = await otherContext.newPage();
  await signIn(other, uniqueName("grace"));
  await expect(other.getByTestId("live-status")).toHaveAttribute("data-status", "live");

  const text = `Shipping the parser fix today ${uniqueName("m")}`;
  const composer = page.getByRole("textbox", { name: /Message #general/ });
  await composer.fill(text);
  await composer.press("Enter");
  await expect(composer).toHaveValue("");
  await expect(page.getByTestId("message").filter({ hasText: text })).toBeVisible();

  // The second browser never reloads: the event stream brings the message.
  await expect(other.getByTestId("message").filter({ hasText: text })).toBeVisible();
  await snap(other, "room");

  await other.getByRole("link", { name: "Journal" }).click();
  const row = other.getByTestId("journal-row").filter({ hasText: text });
  await expect(row).toHaveAttribute("data-kind", "MessageSent");
  await row.getByRole("button", { name: /show its JSON/ }).click();
  await expect(other.locator("pre").filter({ hasText: '"kind": "MessageSent"' })).toBeVisible();
  await snap(other, "journal");
  await otherContext.close();
});

test("an agent's message arrives live, with its performative badge, rendered as text", async ({ page, signIn, registerAgent, asAgent }) => {
  await signIn(page);
  const agent = await registerAgent(uniqueName("coder"), "coder");
  await expect(page.getByTestId("live-status")).toHaveAttribute("data-status", "live");
  const body = `<img src=x onerror="window.__pwned=1"> DONE with ${uniqueName("t")}`;
  // The freshness gate: an agent acks what it has read before it broadcasts.
  const general = (await asAgent(agent).get("/api/rooms")).body.items.find((r: { name: string }) => r.name === "general");
  await asAgent(agent).post("/api/rooms/general/cursor", { seq: general.lastSeq });
  const posted = await asAgent(agent).post("/api/rooms/general/messages", { body, performative: "DONE" });
  expect(posted.status).toBe(201);
  const message = page.getByTestId("message").filter({ hasText: body });
  await expect(message).toBeVisible();
  await expect(message.getByText("done", { exact: true })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  await expect(page.getByTestId("presence")).toContainText(agent.name);
});

test("the journal filters by kind", async ({ page, signIn }) => {
  await signIn(page);
  await page.goto("/journal");
  await page.getByTestId("kind-picker").click();
  await page.getByLabel("Find a kind").fill("signedin");
  await page.getByRole("checkbox", { name: "human signed in" }).check();
  await expect(page.getByTestId("journal-row").first()).toHaveAttribute("data-kind", "HumanSignedIn");
  const kinds = await page.getByTestId("journal-row").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-kind")));
  expect(new Set(kinds)).toEqual(new Set(["HumanSignedIn"]));
});
