// The `quorum` command line: start the hub, add humans and agents. Each command loads only its own modules, so
// `quorum human add` does not pay for the team, the MCP server and the experiments (the hub starts three of these).
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { QuorumError } from "../domain/errors";
import { agentKeySetting, appUrl, typedIn } from "../domain/config";
import type { ClientName } from "./connect";
import type { UsageClient } from "./usage-transcripts";

async function usage(): Promise<string> {
  const [{ FLIGHT_USAGE }, { DIAGNOSE_USAGE }, { MODEL_USAGE }, { WEBHOOK_USAGE }, { EXPERIMENT_USAGE }, { JOURNAL_USAGE }] = await Promise.all([
    import("./flight"),
    import("./diagnose"),
    import("./model"),
    import("./webhook"),
    import("./experiment"),
    import("./journal"),
  ]);
  return `usage:
  quorum start                          start Quorum (embedded Postgres unless DATABASE_URL is set)
  quorum worker [--agent ROLE]...       run the built-in team (or only the roles named) against Quorum's database
  quorum demo                           launch the demo flight (the scripted team fixes a failing test)
  quorum human add NAME                 add a human (or reuse one) and print a one-time sign-in URL
  quorum agent add NAME --role ROLE     register an agent and print its key (shown once)
  quorum agent rotate NAME              issue the agent a new key (shown once) and revoke its old ones at once
  quorum agent revoke NAME              revoke every key of the agent
${FLIGHT_USAGE}
  quorum replay RUN                     re-live a run from its journal; exit 0 if the events come out identical
  quorum replay RUN --until EVENT --script FILE | --live [--root DIR]
                                        fork it: re-live it up to EVENT, carry it on with the script (or the live model) on a
                                        scratch copy of its files, and show how the two journals differ
${DIAGNOSE_USAGE}
  quorum run resume RUN [--root DIR]    carry a halted, stopped or crashed run on from its journal
  quorum run stop RUN --reason TEXT     ask a run to stop at its next turn boundary
  quorum connect claude|codex|cursor --agent NAME [--role ROLE] [--profile full|worker|chat]
                                        register the agent, or rotate its key; print that client's MCP configuration
  quorum mcp [--profile P]              MCP over stdio, relayed to QUORUM_URL with QUORUM_KEY
  quorum hook install [--repo DIR] [--scope S] [--force]
                                        guard this git repository's commits against others' path reservations
  quorum hook usage claude|codex        what Claude Code's or Codex's Stop hook runs: report the session's new model calls to the Bill
                                        (stdin: the hook's JSON; QUORUM_URL, QUORUM_KEY; \`quorum connect\` prints the wiring)
${MODEL_USAGE}
${WEBHOOK_USAGE}
${EXPERIMENT_USAGE}
${JOURNAL_USAGE}`;
}

async function main(argv: string[]): Promise<number> {
  if (argv[0] === "webhook") return (await import("./webhook")).webhookMain(argv.slice(1));
  if (argv[0] === "diagnose") return (await import("./diagnose")).diagnoseMain(argv.slice(1));
  if (argv[0] === "experiment") return (await import("./experiment")).experimentCommand(argv.slice(1));
  if (argv[0] === "journal") return (await import("./journal")).journalMain(argv.slice(1));
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      role: { type: "string" },
      agent: { type: "string", multiple: true },
      profile: { type: "string" },
      scope: { type: "string" },
      repo: { type: "string" },
      force: { type: "boolean" },
      root: { type: "string" },
      reason: { type: "string" },
      goal: { type: "string" },
      test: { type: "string" },
      setup: { type: "string" },
      allowance: { type: "string" },
      draft: { type: "boolean" },
      until: { type: "string" },
      script: { type: "string" },
      live: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
  const [command, sub, name] = positionals;
  // Asked for, the usage is an answer (exit 0); shown because nothing was asked, it is a mistake (exit 1).
  if (values.help || !command) {
    console.log(await usage());
    return values.help ? 0 : 1;
  }
  if (command === "start") {
    await (await import("./start")).start();
    return -1;
  }
  if (command === "worker") {
    const { parseRoles, worker } = await import("./team");
    await worker(parseRoles(values.agent ?? []));
    return 0;
  }
  const { localHumanName, withConnection } = await import("./database");
  if (command === "demo") {
    const { launchDemo } = await import("./team");
    const launched = await withConnection(({ db }) => launchDemo(db, localHumanName()));
    console.log(`Flight launched: goal task #${launched!.goalTask.number} in ${launched!.flight.repo} (${launched!.flight.mode}).`);
    console.log("The team worker that `npm start` runs picks it up; without a running Quorum, run `quorum worker`.");
    return 0;
  }
  if (command === "flight" && sub === "start") {
    const { flightStartCommand } = await import("./flight");
    return withConnection(({ db }) =>
      flightStartCommand(db, localHumanName(), typedIn(), {
        repo: values.repo,
        goal: values.goal,
        test: values.test,
        setup: values.setup,
        allowance: values.allowance,
        draft: values.draft,
      }),
    );
  }
  if (command === "flight" && sub === "list") {
    const { flightListCommand } = await import("./flight");
    return withConnection(({ db }) => flightListCommand(db));
  }
  if (command === "human" && sub === "add" && name) {
    const [{ systemClock }, { ensureHuman }, { issueSignInLink }] = await Promise.all([
      import("../domain/clock"),
      import("../domain/principals/create-principal"),
      import("../domain/principals/sign-in"),
    ]);
    const token = await withConnection(async ({ db }) => {
      const human = await ensureHuman(db, name, systemClock);
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
    const [{ systemClock }, { createAgent }] = await Promise.all([import("../domain/clock"), import("../domain/principals/create-principal")]);
    const agent = await withConnection(({ db }) => createAgent(db, null, { name, role: values.role! }, systemClock));
    console.log(`Agent ${agent.name} (${agent.role}) registered, id ${agent.id}.`);
    console.log(`Its key, shown only now — keep it secret:\n\n    ${agent.key}\n`);
    return 0;
  }
  if (command === "agent" && sub === "rotate" && name) {
    const { rotateCommand } = await import("./agent");
    return withConnection(({ db }) => rotateCommand(db, name));
  }
  if (command === "agent" && sub === "revoke" && name) {
    const { revokeCommand } = await import("./agent");
    return withConnection(({ db }) => revokeCommand(db, name));
  }
  if (command === "mcp") return (await import("./mcp")).mcpCommand(values.profile);
  if (command === "model") return (await import("./model")).modelCommand(sub);
  if (command === "connect") {
    const { clientConfig, CLIENTS, connectBanner, credentialsFor, usageWiring } = await import("./connect");
    if (CLIENTS.includes(sub as ClientName) && values.agent?.length === 1) {
      const credentials = await withConnection(({ db }) => credentialsFor(db, values.agent![0], values.role ?? "coder"));
      const options = { base: appUrl(), key: credentials.key, profile: values.profile };
      console.log(`${connectBanner(credentials)}\n\n${clientConfig(sub as ClientName, options)}\n\n${usageWiring(sub as ClientName, options)}`);
      return 0;
    }
  }
  if (command === "hook" && sub === "install") {
    // npm run moves to Quorum's folder; INIT_CWD is where it was typed.
    const { installHook } = await import("./hook");
    const repo = resolve(typedIn(), values.repo ?? ".");
    const hook = installHook({ repo, url: appUrl(), scope: values.scope, key: agentKeySetting(), force: values.force });
    console.log(`Installed ${hook.path}: commits touching paths another agent reserved (scope ${hook.scope}) are refused.`);
    console.log(
      agentKeySetting() ? "The key in QUORUM_KEY was stored in this repository's git config (quorum.key)." : "Set QUORUM_KEY when committing, or `git config quorum.key <key>`.",
    );
    return 0;
  }
  if (command === "replay" && sub && (values.until || values.script || values.live)) {
    const { forkCommand } = await import("./replay");
    return withConnection(({ db }) => forkCommand(db, sub, { until: values.until, script: values.script, live: values.live, root: values.root }));
  }
  if (command === "hook" && sub === "usage" && (await import("./usage-transcripts")).USAGE_CLIENTS.includes(name as UsageClient)) {
    const { usageHook } = await import("./usage-hook");
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    const stdin = Buffer.concat(chunks).toString("utf8");
    return usageHook(name as UsageClient, stdin, { base: appUrl(), key: agentKeySetting(), stateDir: join(homedir(), ".cache", "quorum", "usage-hooks") });
  }
  if (command === "replay" && sub) {
    const { replayCommand } = await import("./replay");
    return withConnection(({ db }) => replayCommand(db, sub));
  }
  if (command === "run" && sub === "resume" && name) {
    const { resumeCommand } = await import("./run");
    return withConnection(({ db }) => resumeCommand(db, name, values.root && resolve(typedIn(), values.root)));
  }
  if (command === "run" && sub === "stop" && name) {
    const { stopCommand } = await import("./run");
    return withConnection(({ db }) => stopCommand(db, name, values.reason));
  }
  console.error(await usage());
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
