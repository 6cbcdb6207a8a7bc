// The session cookie: reading its token from a request, and the Set-Cookie lines that set and clear it.

export const SESSION_COOKIE = "quorum_session";

/** The value of cookie `name` in a Cookie header, if present. */
export function cookieValue(header: string | null | undefined, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key !== name) continue;
    try {
      return decodeURIComponent(rest.join("="));
    } catch {
      // A malformed escape names no session.
      return undefined;
    }
  }
  return undefined;
}

/** The session token a Cookie header carries, if any. */
export function sessionTokenOf(cookieHeader: string | null | undefined): string | undefined {
  return cookieValue(cookieHeader, SESSION_COOKIE) || undefined;
}

/** Cookies are `Secure` when the hub is served over https (its `QUORUM_URL`), so they never travel in clear text. */
export function secureCookies(appUrl: string | undefined): boolean {
  return /^https:\/\//i.test(appUrl?.trim() ?? "");
}

function attributes(secure: boolean): string {
  return `Path=/; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}

/** The Set-Cookie line that opens a session in the browser. */
export function sessionCookie(token: string, expiresAt: Date, secure: boolean): string {
  return `${SESSION_COOKIE}=${encodeURIComponent(token)}; ${attributes(secure)}; Expires=${expiresAt.toUTCString()}`;
}

/** The Set-Cookie line that makes the browser forget its session. */
export function clearedSessionCookie(secure: boolean): string {
  return `${SESSION_COOKIE}=; ${attributes(secure)}; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT`;
}
