// The `quorum` command line: start the hub, add humans and agents.
import { parseArgs } from "node:util";
import { systemClock } from "../server/clock";
import { createAgent, ensureHuman } from "../server/principals/create-principal";
import { issueSignInLink } from "../server/principals/sign-in";
import { QuorumError } from "../server/errors";
import { appUrl, withConnection } from "./database";
import { start } from "./start";

const USAGE = `usage:
  quorum start                          start Quorum (embedded Postgres unless DATABASE_URL is set)
  quorum human add NAME                 add a human (or reuse one) and print a one-time sign-in URL
  quorum agent add NAME --role ROLE     register an agent and print its key (shown once)`;

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { role: { type: "string" }, help: { type: "boolean", short: "h" } },
  });
  const [command, sub, name] = positionals;
  if (values.help || !command) {
    console.log(USAGE);
    return command ? 0 : 1;
  }
  if (command === "start") {
    await start();
    return -1;
  }
  if (command === "human" && sub === "add" && name) {
    const token = await withConnection(async ({ db }) => {
      const human = await ensureHuman(db, name);
      return issueSignInLink(db, human, systemClock);
    });
    console.log(`${appUrl()}/signin?token=${token}`);
    return 0;
  }
  if (command === "agent" && sub === "add" && name) {
    if (!values.role) {
      console.error("--role is required (orchestrator, coder, reviewer, tester, …)");
      return 1;
    }
    const agent = await withConnection(({ db }) => createAgent(db, null, { name, role: values.role! }));
    console.log(`Agent ${agent.name} (${agent.role}) registered, id ${agent.id}.`);
    console.log(`Its key, shown only now — keep it secret:\n\n    ${agent.key}\n`);
    return 0;
  }
  console.error(USAGE);
  return 1;
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (error: unknown) => {
    console.error(error instanceof QuorumError ? `quorum: ${error.message}` : error);
    process.exit(1);
  },
);
