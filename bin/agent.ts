// `quorum agent rotate NAME` and `quorum agent revoke NAME`: an operator ends an agent's keys from the hub's machine.
import type { Db } from "../db/client";
import { systemClock } from "../domain/clock";
import { revokeAgentKeys, rotateAgentKey } from "../domain/principals/keys";

const plural = (n: number) => `${n} old key${n === 1 ? "" : "s"}`;

/** Issues the agent a new key and revokes the old ones at once; prints the new key, which is shown only now. */
export async function rotateCommand(db: Db, name: string, print: (line: string) => void = console.log): Promise<number> {
  const { agent, key, revoked } = await rotateAgentKey(db, null, name, systemClock);
  print(`Agent ${agent.name}: a new key issued, ${plural(revoked)} revoked. The key, shown only now — keep it secret:\n\n    ${key}\n`);
  return 0;
}

/** Revokes every key of the agent: it is locked out until its key is rotated. */
export async function revokeCommand(db: Db, name: string, print: (line: string) => void = console.log): Promise<number> {
  const { agent, revoked } = await revokeAgentKeys(db, null, name, systemClock);
  print(`Agent ${agent.name}: ${revoked} key${revoked === 1 ? "" : "s"} revoked; it is locked out until \`quorum agent rotate ${agent.name}\` issues a new one.`);
  return 0;
}
