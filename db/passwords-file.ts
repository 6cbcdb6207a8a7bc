// Where the embedded server's passwords are kept under QUORUM_HOME, and a read of them that never makes the
// file: domain/hub-secrets.ts redacts them from tool output, and must not pull in the migrator to do so.
import { readFileSync } from "node:fs";
import { join } from "node:path";

export const PASSWORDS_FILE = "pg-passwords.json";

/** The embedded server's passwords as stored, or none. */
export function storedPasswords(home: string): string[] {
  try {
    const stored = JSON.parse(readFileSync(join(home, PASSWORDS_FILE), "utf8")) as Record<string, unknown>;
    return Object.values(stored).filter((value): value is string => typeof value === "string");
  } catch {
    return [];
  }
}
