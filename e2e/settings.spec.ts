// The Settings page as a human uses it: add a webhook (its secret shown once), send a test that a real
// receiver verifies with the Standard Webhooks library, watch the delivery appear live, delete it.
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { expect, test } from "./fixtures";

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

test("a human adds a webhook on the Settings page, sees its secret once, and a test delivery arrives signed", async ({ page, signIn, snap }) => {
  const received: Received[] = [];
  const receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      received.push({ headers: req.headers, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  try {
    await signIn(page);
    await page.getByRole("link", { name: "Settings" }).click();
    await expect(page.getByRole("heading", { name: "Webhooks" })).toBeVisible();

    const form = page.getByRole("form", { name: "Add a webhook" });
    await form.getByLabel("Endpoint URL").fill(url);
    await form.getByLabel("review.requested").check();
    await form.getByLabel("escalation.opened").check();
    await form.getByRole("button", { name: "Add webhook" }).click();
    const shown = page.getByTestId("webhook-secret");
    await expect(shown).toContainText("whsec_");
    const secret = ((await shown.locator("code").textContent()) ?? "").trim();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/);
    await snap(page, "settings-secret");
    await shown.getByRole("button", { name: "I have stored it" }).click();
    await expect(shown).toHaveCount(0);

    const hook = page.getByTestId("webhook").filter({ hasText: url });
    await expect(hook).toContainText("review.requested · escalation.opened");
    await hook.getByRole("button", { name: "Send test" }).click();
    // The delivery shows up live on the page, and the receiver can verify who sent it. (The first flight's
    // goal, waiting for a human's review, may arrive too: review.requested is subscribed.)
    await expect(hook.locator('[data-testid="webhook-delivery"][data-status="delivered"]').filter({ hasText: "webhook.test" })).toHaveCount(1, { timeout: 20_000 });
    const tests = received.filter((r) => JSON.parse(r.body).type === "webhook.test");
    expect(tests).toHaveLength(1);
    const [delivery] = tests;
    const verified = new Webhook(secret).verify(delivery.body, {
      "webhook-id": String(delivery.headers["webhook-id"]),
      "webhook-timestamp": String(delivery.headers["webhook-timestamp"]),
      "webhook-signature": String(delivery.headers["webhook-signature"]),
    }) as { type: string };
    expect(verified.type).toBe("webhook.test");
    await snap(page, "settings-delivered");

    // The secret never comes back: not after a reload, not in the list.
    await page.reload();
    await expect(page.getByTestId("webhook").filter({ hasText: url })).toBeVisible();
    await expect(page.getByText(secret)).toHaveCount(0);

    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByTestId("webhook").filter({ hasText: url }).getByRole("button", { name: "Delete" }).click();
    await expect(page.getByTestId("webhook").filter({ hasText: url })).toHaveCount(0);
  } finally {
    await new Promise((resolve) => receiver.close(resolve));
  }
});
