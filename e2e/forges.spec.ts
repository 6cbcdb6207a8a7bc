// Settings → Forges as a human uses it: connect a forge host with its token (the API URL filled in from the host),
// see only the token's last 4 characters, replace the token, remove the host — on a desktop and on a phone, where
// the section fits without scrolling sideways and passes axe.
import { randomBytes } from "node:crypto";
import { seriousViolations } from "./axe";
import { expect, test } from "./fixtures";
import { documentOverflow } from "./page-walk";

const newToken = () => `ghp_${randomBytes(16).toString("hex")}`;

test("a human connects a forge in Settings, sees only its token's ending, replaces the token and removes the forge", async ({ page, signIn, snap }) => {
  const human = await signIn(page);
  const host = `git-${randomBytes(3).toString("hex")}.example.test`;
  const [first, second] = [newToken(), newToken()];
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.getByRole("link", { name: "Settings" }).click();
  await expect(page.getByRole("heading", { name: "Forges" })).toBeVisible();

  const form = page.getByRole("form", { name: "Add a forge" });
  await form.getByLabel("Host").fill(host);
  // The API URL follows the host: GitHub Enterprise's path for any host but github.com.
  await expect(form.getByLabel("API URL")).toHaveValue(`https://${host}/api/v3`);
  await form.getByLabel("Host").fill("github.com");
  await expect(form.getByLabel("API URL")).toHaveValue("https://api.github.com");
  await form.getByLabel("Host").fill(host);
  const tokenField = form.getByLabel("Token");
  await expect(tokenField).toHaveAttribute("type", "password");
  await expect(form).toContainText("never shown again, nor to any agent");
  await tokenField.fill(first);
  await form.getByRole("button", { name: "Add forge" }).click();

  const forge = page.getByTestId("forge").filter({ hasText: host });
  await expect(forge).toContainText("GitHub");
  await expect(forge).toContainText(`https://${host}/api/v3`);
  await expect(forge.getByTestId("forge-token-ending")).toHaveText(`…${first.slice(-4)}`);
  await expect(forge).toContainText(`added by ${human}`);
  await expect(tokenField).toHaveValue("");
  // The token is nowhere on the page, nor in what the page reads.
  expect(await page.content()).not.toContain(first);
  const listed = await page.request.get("/api/forges");
  expect(await listed.text()).not.toContain(first);

  await forge.scrollIntoViewIfNeeded();
  await snap(page, "forges-1440");
  expect(await seriousViolations(page, "Settings → Forges at 1440")).toEqual([]);

  // Replacing the token: the new ending shows, the old one is gone.
  await forge.getByRole("button", { name: "Replace token" }).click();
  const replace = forge.getByRole("form", { name: `Replace the token for ${host}` });
  await expect(replace.getByLabel("New token")).toHaveAttribute("type", "password");
  await replace.getByLabel("New token").fill(second);
  await replace.getByRole("button", { name: "Save token" }).scrollIntoViewIfNeeded();
  await snap(page, "forges-replacing-1440");
  await replace.getByRole("button", { name: "Save token" }).click();
  await expect(forge.getByTestId("forge-token-ending")).toHaveText(`…${second.slice(-4)}`);
  await expect(replace).toHaveCount(0);
  expect(await page.content()).not.toContain(second);

  // On a phone the section fits the width, the list item's buttons wrapping under it.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(forge.getByTestId("forge-token-ending")).toHaveText(`…${second.slice(-4)}`);
  await forge.getByRole("button", { name: "Replace token" }).click();
  await forge.scrollIntoViewIfNeeded();
  expect(await documentOverflow(page)).toBeNull();
  await snap(page, "forges-390");
  expect(await seriousViolations(page, "Settings → Forges at 390")).toEqual([]);
  await forge.getByRole("button", { name: "Cancel" }).click();

  // Removing asks first; then the host and its token are gone.
  page.once("dialog", (dialog) => void dialog.accept());
  await forge.getByRole("button", { name: "Remove" }).click();
  await expect(forge).toHaveCount(0);
  expect(await (await page.request.get("/api/forges")).text()).not.toContain(host);
});
