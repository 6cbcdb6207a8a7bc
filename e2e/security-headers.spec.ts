// Pages and API answers carry nosniff, a Content-Security-Policy with frame-ancestors 'none' and
// Referrer-Policy: same-origin. That the app really runs under the policy (no page has a CSP violation) is
// checked on every page by the walk in e2e/pages.spec.ts.
import { test, expect } from "./fixtures";

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
