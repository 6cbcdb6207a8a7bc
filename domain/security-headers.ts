// The security headers of every page and API answer (DESIGN.md §3), in one list: next.config.ts sends them
// with the pages, the lean API router (surfaces/web/api-router.ts) with every /api/* answer. Pure (no imports).

/**
 * The Content-Security-Policy of every page and API answer. Scripts are `'self' 'unsafe-inline'`, not
 * nonces: Next's App Router inlines its bootstrap and flight-data scripts, and a nonce must be minted per
 * request, which would force every page to render dynamically (several are prerendered) and put a proxy
 * in front of every request (Next buffers a proxied request's body, defeating the API's streamed 1 MiB
 * cap). What the policy still buys: no script, style, image or connection from another origin, no
 * plugins, no <base> hijack, forms post only here, and no page may frame Quorum (clickjacking).
 * `next dev` also needs 'unsafe-eval' (React's dev tooling); production builds do not get it.
 */
function contentSecurityPolicy(dev: boolean): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'unsafe-inline'${dev ? " 'unsafe-eval'" : ""}`,
    // React's style={…} props become inline style attributes.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

export interface HeaderLine {
  key: string;
  value: string;
}

/** The headers, in next.config.ts `headers()` shape; `dev` is `NODE_ENV === "development"` (domain/config.ts). */
export function securityHeaders(dev: boolean): HeaderLine[] {
  return [
    { key: "Content-Security-Policy", value: contentSecurityPolicy(dev) },
    { key: "X-Content-Type-Options", value: "nosniff" },
    { key: "Referrer-Policy", value: "same-origin" },
    // frame-ancestors' older spelling, for browsers that predate it.
    { key: "X-Frame-Options", value: "DENY" },
  ];
}
