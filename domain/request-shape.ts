// What any HTTP request must be before it is read: a body no larger than the cap, and a path whose
// segments (a route's params are input like bodies) decode to short, storable text. A NUL decoded from
// `%00` fails a Postgres query (a 500), and bytes that are not UTF-8 (`%FF`, `%C0%AF`) make Next itself
// fail while it decodes the route's params.
// Pure (no imports): the API's router (surfaces/http/router.ts), the proxy (proxy.ts) and MCP share it.

/**
 * Every request body, REST and MCP: a larger one is refused (413) while it streams in, before parsing.
 * The largest single field Quorum takes is a task's evidence (256 K characters); 1 MiB holds it with room.
 */
export const MAX_BODY_BYTES = 1024 * 1024;

/** No id, name, room or run id in Quorum comes near this many characters; a longer segment names nothing. */
export const MAX_SEGMENT_CHARS = 200;

export interface PathIssue {
  code: "custom";
  /** `["path", n]`: the n-th segment of the path, counted from 0 after the leading slash. */
  path: (string | number)[];
  message: string;
}

const CONTROL = /\p{Cc}/u;

/** What is wrong with a raw (still percent-encoded) URL path, segment by segment; empty when nothing is. */
export function pathIssues(pathname: string): PathIssue[] {
  const issues: PathIssue[] = [];
  pathname
    .replace(/^\//, "")
    .split("/")
    .forEach((raw, index) => {
      const path = ["path", index];
      let segment: string;
      try {
        segment = decodeURIComponent(raw);
      } catch {
        issues.push({ code: "custom", path, message: `segment ${index} is not percent-encoded UTF-8` });
        return;
      }
      if (CONTROL.test(segment)) issues.push({ code: "custom", path, message: `segment ${index} may not contain control characters (NUL included)` });
      else if (segment.length > MAX_SEGMENT_CHARS) issues.push({ code: "custom", path, message: `segment ${index} is longer than ${MAX_SEGMENT_CHARS} characters` });
    });
  return issues;
}

/** The refusal's message for a path with issues. */
export function pathMessage(issues: PathIssue[]): string {
  return `invalid path: ${issues.map((i) => i.message).join("; ")}`;
}
