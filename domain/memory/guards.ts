// Memory's refusals: only humans pin and unpin.
import { fail } from "../errors";
import type { Principal } from "../principal";

export function requireHuman(caller: Principal, action: string): void {
  if (caller.kind !== "human") throw fail.forbidden("principle", `only humans ${action} principles`);
}
