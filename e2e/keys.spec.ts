// Keys and sessions end from the browser: a human rotates an agent's key on the Agents page (shown once, the
// old key refused at once) and revokes its keys; the signed-in human signs out from the rail, and the old cookie is refused.
import { expect, test } from "./fixtures";

test("a human rotates an agent's key on the Agents page: the new key is shown once, the old one refused", async ({ page, signIn, registerAgent, asAgent, snap }) => {
  const agent = await registerAgent(undefined, "coder");
  expect((await asAgent(agent).get("/api/me")).status).toBe(200);
  await signIn(page);
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.goto("/agents");
  await page.getByTestId("roster-row").filter({ hasText: agent.name }).getByRole("link", { name: agent.name }).click();
  await expect(page.getByRole("heading", { name: agent.name })).toBeVisible();

  // A confirm step first; cancelling it changes nothing.
  await page.getByRole("button", { name: "Rotate key" }).click();
  await page.getByRole("button", { name: "Cancel" }).click();
  expect((await asAgent(agent).get("/api/me")).status).toBe(200);

  await page.getByRole("button", { name: "Rotate key" }).click();
  await expect(page.getByText(`Issue ${agent.name} a new key? Its current keys stop working at once.`)).toBeVisible();
  await page.getByRole("button", { name: "Rotate now" }).click();
  const shown = page.getByTestId("new-key-value");
  await expect(shown).toHaveText(/^qk_[A-Za-z0-9_-]{43}$/);
  const key = (await shown.textContent())!;
  await page.getByRole("button", { name: "Copy" }).click();
  await expect(page.getByRole("button", { name: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
  await snap(page, "key-rotated");

  expect((await asAgent(agent).get("/api/me")).status).toBe(401);
  const rotated = asAgent({ ...agent, key });
  expect((await rotated.get("/api/me")).body).toMatchObject({ id: agent.id, name: agent.name });

  // Shown once: dismissed or reloaded, the page never shows it again.
  await page.getByRole("button", { name: "Done" }).click();
  await expect(page.getByTestId("new-key")).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole("button", { name: "Rotate key" })).toBeVisible();
  await expect(page.getByText(key)).toHaveCount(0);

  await page.getByRole("button", { name: "Revoke keys" }).click();
  await page.getByRole("button", { name: "Revoke all keys" }).click();
  await expect(page.getByText(`Every key of ${agent.name} is revoked`)).toBeVisible();
  expect((await rotated.get("/api/me")).status).toBe(401);
});

test("the signed-in human signs out from the rail: the sign-in page, and the old cookie no longer works", async ({ page, signIn, request, baseURL }) => {
  const name = await signIn(page);
  const session = (await page.context().cookies()).find((c) => c.name === "quorum_session");
  expect(session?.httpOnly).toBe(true);
  const cookie = `quorum_session=${session!.value}`;
  expect((await request.get(`${baseURL}/api/me`, { headers: { cookie } })).status()).toBe(200);

  await expect(page.getByTestId("signed-in-as")).toContainText(name);
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/welcome$/);
  await expect(page.getByRole("heading", { name: "Sign in to Quorum" })).toBeVisible();
  expect((await page.context().cookies()).find((c) => c.name === "quorum_session")).toBeUndefined();

  // The old cookie, replayed by hand, is refused: the session ended on the server, not just in this browser.
  expect((await request.get(`${baseURL}/api/me`, { headers: { cookie } })).status()).toBe(401);
  await page.context().addCookies([{ ...session!, expires: -1 }]);
  await page.goto("/room");
  await expect(page.getByRole("heading", { name: "Sign in to Quorum" })).toBeVisible();
});

test("a human allows an agent to start flights on its page; the agent's own request is refused until then", async ({ page, signIn, registerAgent, asAgent, snap }) => {
  const agent = await registerAgent(undefined, "coder");
  expect((await asAgent(agent).post("/api/flights", { repo: "/nowhere", goal: "mine" })).body).toMatchObject({
    error: "forbidden",
    message: expect.stringMatching(/may not start flights/),
  });
  await signIn(page);
  await page.goto("/agents");
  await page.getByTestId("roster-row").filter({ hasText: agent.name }).getByRole("link", { name: agent.name }).click();
  await expect(page.getByTestId("flight-allowance")).toHaveText(/None: it may not start flights/);
  await page.getByRole("button", { name: "Allow flights" }).click();
  await page.getByLabel("Tokens in all (0: none)").fill("500000");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("flight-allowance")).toHaveText(/Flights of up to 500k tokens in all: 0 taken by the flights it started, 500k left\./);
  await snap(page, "flight-allowance");
  // Allowed, the agent is now refused only for what the rules still forbid: a repository no human flew.
  expect((await asAgent(agent).post("/api/flights", { repo: "/nowhere", goal: "mine" })).body).toMatchObject({ message: expect.stringMatching(/no human has flown \/nowhere/) });
});
