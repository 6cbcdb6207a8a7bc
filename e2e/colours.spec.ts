// One colour per principal, for good: an outside agent registering (its name sorting first) changes nobody
// else's colour, on the Agents page as on the human's own avatar.
import { expect, test } from "./fixtures";

test("registering an outside agent moves nobody's colour", async ({ page, signIn, registerAgent, snap }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page);
  await registerAgent(`m-${Date.now().toString(36)}`, "coder");
  await page.goto("/agents");
  const rows = page.getByTestId("roster-row");
  await expect(rows.first()).toBeVisible();
  const colours = async () =>
    Object.fromEntries(await rows.evaluateAll((trs) => trs.map((tr) => [tr.getAttribute("data-agent"), tr.querySelector("[data-colour]")?.getAttribute("data-colour")]))) as Record<
      string,
      string
    >;
  const mine = () => page.getByTestId("signed-in-as").locator("[data-colour]").first().getAttribute("data-colour");
  await expect.poll(async () => Object.values(await colours()).every((c) => c && c !== "bg-neutral-500")).toBe(true);
  const before = await colours();
  const myColour = await mine();
  expect(Object.keys(before).length).toBeGreaterThan(1);
  expect(myColour).not.toBe("bg-neutral-500");

  const newcomer = await registerAgent(`a-${Date.now().toString(36)}`, "coder");
  await page.reload();
  await expect(page.locator(`[data-testid="roster-row"][data-agent="${newcomer.name}"]`)).toBeVisible();
  await expect.poll(async () => Object.values(await colours()).every((c) => c && c !== "bg-neutral-500")).toBe(true);
  const after = await colours();
  for (const [name, colour] of Object.entries(before)) expect(after[name], `${name}'s colour`).toBe(colour);
  expect(await mine()).toBe(myColour);
  await snap(page, "colours-agents-1440");
});
