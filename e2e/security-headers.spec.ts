// Issue 14 item 8: pages and API answers carry nosniff, a Content-Security-Policy with frame-ancestors 'none'
// and Referrer-Policy: same-origin, and the app really runs under that policy: every page of the rail
// renders, hydrates and stays live without a single CSP violation in the browser.
import { test, expect } from "./fixtures";

const PAGES = ["/room", "/board", "/decisions", "/decisions/escalations", "/commitments", "/bill", "/journal", "/agents", "/principles"];

function expectSecurityHeaders(headers: Record<string, string>, what: string) {
  expect(headers["x-content-type-options"], what).toBe("nosniff");
  expect(headers["referrer-policy"], what).toBe("same-origin");
  const csp = headers["content-security-policy"] ?? "";
  expect(csp, what).toContain("frame-ancestors 'none'");
  expect(csp, what).toContain("script-src 'self'");
  expect(csp, what).toContain("object-src 'none'");
}

test("pages and the API send the security headers", async ({ page, baseURL, signIn }) => {
  const welcome = await page.request.get(`${baseURL}/welcome`);
  expectSecurityHeaders(welcome.headers(), "/welcome");
  await signIn(page);
  for (const path of ["/room", "/api/health", "/api/tasks"]) {
    const answer = await page.request.get(`${baseURL}${path}`);
    expect(answer.status(), path).toBe(200);
    expectSecurityHeaders(answer.headers(), path);
  }
  // A refusal (here: a path Next itself cannot decode) carries them too.
  expectSecurityHeaders((await page.request.get(`${baseURL}/api/tasks/%FF`)).headers(), "/api/tasks/%FF");
});

test("every page of the rail runs under the policy: no CSP violation, and the page hydrates", async ({ page, baseURL, signIn }) => {
  const violations: string[] = [];
  // The browser reports each blocked script, style, frame or connection as an event and on the console.
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || "(inline)"}`);
    });
  });
  page.on("console", (message) => {
    if (/Content[- ]Security[- ]Policy|CSP violation|Refused to (load|execute|apply|connect|frame)/i.test(message.text()))
      violations.push(`${page.url()}: ${message.text().slice(0, 200)}`);
  });
  page.on("pageerror", (error) => violations.push(`${page.url()}: ${error.message.slice(0, 200)}`));
  await signIn(page);
  for (const path of PAGES) {
    const answer = await page.goto(`${baseURL}${path}`);
    expect(answer?.status(), path).toBe(200);
    await expect(page.getByTestId("signed-in-as"), path).toBeVisible();
  }
  // Hydrated and live: client-side navigation through the rail works (a blocked inline script would stop it).
  await page.goto(`${baseURL}/room`);
  await page.getByRole("link", { name: "Board", exact: true }).click();
  await expect(page).toHaveURL(/\/board$/);
  await page.waitForTimeout(500);
  expect(violations).toEqual([]);
});
