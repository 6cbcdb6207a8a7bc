// The pre-commit hook `quorum hook install` writes: plain JavaScript with no dependencies, for any machine with Node.
/**
 * It runs as CommonJS or as an ES module alike (a repository's package.json may say either), so it
 * uses only dynamic import() and no top-level await. Settings come from the environment, else the
 * repository's git config (quorum.url, quorum.key, quorum.scope), else what install baked in.
 */
export function preCommitScript(defaults: { url: string; scope: string }): string {
  return `#!/usr/bin/env node
// quorum pre-commit guard (written by \`quorum hook install\`): refuses a commit that touches a path
// another agent holds under an exclusive Quorum reservation. Skip it knowingly with --no-verify.
(async () => {
  const { execFileSync } = await import("node:child_process");
  const git = (...args) => execFileSync("git", args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  const setting = (name) => { try { return git("config", "--get", name).trim(); } catch { return ""; } };
  const url = process.env.QUORUM_URL || setting("quorum.url") || ${JSON.stringify(defaults.url)};
  const key = process.env.QUORUM_KEY || setting("quorum.key");
  const scope = process.env.QUORUM_SCOPE || setting("quorum.scope") || ${JSON.stringify(defaults.scope)};
  const refuse = (why) => { console.error("quorum: commit refused — " + why); process.exit(1); };
  if (!key) refuse("no Quorum key: set QUORUM_KEY or \`git config quorum.key <key>\` (or commit with --no-verify)");
  // -z keeps odd file names intact; -M reports renames as R<score> old new, and both ends count.
  const fields = git("diff", "--cached", "--name-status", "-z", "-M").split("\\0").filter((f) => f !== "");
  const paths = new Set();
  for (let i = 0; i < fields.length; ) {
    const status = fields[i++];
    const ends = /^[RC]/.test(status) ? 2 : 1;
    const named = fields.slice(i, i + ends);
    i += ends;
    (status.startsWith("C") ? named.slice(1) : named).forEach((p) => paths.add(p));
  }
  if (paths.size === 0) return;
  const all = [...paths];
  const blocked = [];
  const shared = [];
  for (let from = 0; from < all.length; from += 5000) {
    let res;
    try {
      res = await fetch(new URL("/api/reservations/check", url), {
        method: "POST",
        headers: { "content-type": "application/json", authorization: "Bearer " + key },
        body: JSON.stringify({ paths: all.slice(from, from + 5000), scope }),
        signal: AbortSignal.timeout(15000),
      });
    } catch (error) {
      refuse("cannot reach Quorum at " + url + " (" + error.message + ")");
    }
    const body = await res.json().catch(() => ({}));
    if (!res.ok) refuse("Quorum answered " + res.status + ": " + (body.message || body.error || "no reason given"));
    blocked.push(...body.blocked);
    shared.push(...body.shared);
  }
  for (const s of shared) console.error("quorum: note — " + s.path + " is shared-reserved by " + s.holderName + " (" + s.reason + ")");
  if (blocked.length === 0) return;
  console.error("quorum: commit refused — these staged paths are reserved by another agent:");
  for (const b of blocked) {
    console.error("  " + b.path + "  reserved by " + b.holderName + " (" + b.pattern + ", R-" + b.fence + ", until " + b.expiresAt + "): " + b.reason);
  }
  console.error("Ask the holder in the room, wait for the reservation to end, or unstage those paths.");
  process.exit(1);
})().catch((error) => {
  console.error("quorum: commit refused — the guard failed: " + (error && error.message));
  process.exit(1);
});
`;
}

/** Marks a hook file as ours, so install may replace it but never someone else's hook. */
export const HOOK_MARKER = "quorum pre-commit guard";
