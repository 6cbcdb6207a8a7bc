// A teammate joins from the browser: a human invites them by name in Settings, the link (shown once) opens a
// page where Join signs them in; a revoked link says so; a removed human's session ends at once.
import { expect, test, uniqueName } from "./fixtures";

test("a human invites a teammate who joins from the link; a revoked link is refused; a removed human is signed out", async ({ page, browser, signIn, snap }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const inviter = await signIn(page);
  await page.goto("/settings");
  const people = page.getByRole("region", { name: "People" });
  const mate = uniqueName("mate");
  await people.getByLabel("Name").fill(mate);
  await people.getByRole("button", { name: "Invite" }).click();
  const link = people.getByTestId("invitation-link");
  await expect(link).toContainText(`Send this link to ${mate}. It is shown only now, works once, and expires in 3 d.`);
  const url = (await link.getByTestId("invitation-url").textContent()) ?? "";
  expect(url).toMatch(/\/invite\/qi_[A-Za-z0-9_-]{43}$/);
  await expect(people.getByTestId("invitation-row").filter({ hasText: mate })).toContainText(`by ${inviter}, expires in 3 d`);
  await snap(page, "settings-people-1440");

  // The teammate, in a browser of their own, opens the link: nothing is spent until they press Join.
  const theirs = await browser.newContext({ viewport: { width: 390, height: 844 } });
  try {
    const them = await theirs.newPage();
    await them.goto(url);
    const invitation = them.getByTestId("invitation");
    await expect(invitation).toContainText(`${inviter} invited you to work with the team as ${mate}.`);
    await snap(them, "invitation-390");
    await them.reload();
    await invitation.getByRole("button", { name: `Join as ${mate}` }).click();
    await expect(them).toHaveURL(/\/room$/);
    await expect(them.getByTestId("signed-in-as")).toContainText(mate);

    // The inviter's Settings shows them among the humans (live), and the invitation is gone.
    const row = people.getByTestId("human-row").filter({ hasText: mate });
    await expect(row).toContainText("seen just now");
    await expect(people.getByTestId("invitation-row").filter({ hasText: mate })).toHaveCount(0);

    // A second invitation, revoked: its link says it cannot be used.
    const other = uniqueName("late");
    await people.getByLabel("Name").fill(other);
    await people.getByRole("button", { name: "Invite" }).click();
    const revokedUrl = (await people.getByTestId("invitation-url").textContent()) ?? "";
    await people.getByTestId("invitation-row").filter({ hasText: other }).getByRole("button", { name: "Revoke" }).click();
    await expect(people.getByTestId("invitation-row").filter({ hasText: other })).toHaveCount(0);
    const late = await theirs.newPage();
    await late.goto(revokedUrl);
    await expect(late.getByTestId("invitation")).toContainText("this invitation is unknown, used, revoked or expired: ask your teammate for a new one");
    await late.close();

    // Removed: their session ends, and their next page asks them to sign in.
    page.once("dialog", (dialog) => dialog.accept());
    await row.getByRole("button", { name: "Remove" }).click();
    await expect(row).toHaveCount(0);
    await them.reload();
    await expect(them.getByRole("heading", { name: "Sign in to Quorum" })).toBeVisible();
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
    await snap(page, "settings-people-390");
  } finally {
    await theirs.close();
  }
});
