// One worker host: its agents claim, heartbeat, write output item by item, submit and post direct messages
// over HTTP through quorum/client, spread over the app instances. Prints one JSON line per fact (wire.ts);
// SIGTERM stops it after the calls in flight. Usage: agent-host.ts CONFIG.json
import { readFileSync } from "node:fs";
import type { QuorumClient } from "../../client";
import { type AgentHostConfig, answer, type Answer, emitLine, sleep, spreadClient, type AgentLine } from "./wire";

const config = JSON.parse(readFileSync(process.argv[2], "utf8")) as AgentHostConfig;
let stopping = false;
process.on("SIGTERM", () => {
  stopping = true;
});
const emit = (line: AgentLine) => emitLine(line);
// AbortSignal.timeout's timers do not hold the process open: with every request waiting on a socket that
// went quiet, Node found nothing left to run and quit with exit code 13 (unsettled top-level await)
// instead of letting the timeouts fire. This interval keeps the process alive until process.exit.
setInterval(() => {}, 1_000);

interface Agent {
  name: string;
  call: QuorumClient;
  sent: number;
}

async function post(agent: Agent): Promise<"acked" | "refused" | "unknown"> {
  const body = `${config.host}/${agent.name} #${agent.sent++}`;
  const to = config.peers[(agent.sent + agent.name.length) % config.peers.length];
  const res = await answer(agent.call.POST("/api/rooms/{room}/messages", { params: { path: { room: config.room } }, body: { body, to } }));
  if (res?.status === 201) {
    emit({ t: "post", id: res.body.id, seq: res.body.seq, room: config.room, body, sender: agent.name });
    return "acked";
  }
  if (res && (res.status === 409 || res.status === 429)) return "refused";
  if (res && res.status < 500) emit({ t: "unexpected", agent: agent.name, what: `post: ${res.status} ${JSON.stringify(res.body)}` });
  else emit({ t: "postUnknown", body, sender: agent.name });
  return "unknown";
}

/** Reads the task until an instance answers (the host may be cut off for a while). */
async function readTask(agent: Agent, id: string): Promise<{ fence: number; status: string; outputCount: number }> {
  for (;;) {
    const res = await answer(agent.call.GET("/api/tasks/{id}", { params: { path: { id } } }));
    if (res?.status === 200) return res.body.task ?? res.body;
    await sleep(500);
  }
}

/**
 * Works one claimed task to its submission. Each item names its place (`from`), so a write sent again
 * after no answer is never stored twice, even when the first one is still on its way. A write that got no
 * answer is found out by reading the task: the lease still holds (go on from the count read), or it is
 * gone, in which case the write is sent once more with the old fence, until answered, to see it refused.
 * A write answered long after the last answered one is late: its lease must have expired and been swept,
 * so it must be refused with stale_fence. Every way out tells the runner how the task ended (submitted,
 * stale or unexpected): it waits for that before it stops the host.
 */
async function workTask(agent: Agent, task: { id: string; number: number; fence: number; outputCount: number }): Promise<void> {
  const { id, number, fence } = task;
  let count = task.outputCount;
  let lastAnswered = Date.now();
  let lastBeat = Date.now();
  /** Sends one owner write; true when accepted, false when the task is lost (refused), null when unanswered. */
  const write = async (op: string, send: () => Promise<Answer>): Promise<boolean | null> => {
    const res = await send();
    const silentMs = Date.now() - lastAnswered;
    if (!res || res.status >= 500) return null;
    const late = silentMs > config.lateMs;
    if (res.status === 200 || res.status === 201) {
      if (late) emit({ t: "lateAccepted", agent: agent.name, number, fence, op, silentMs });
      lastAnswered = Date.now();
      return true;
    }
    if (res.status === 409 && res.body?.error === "stale_fence") emit({ t: "stale", agent: agent.name, number, fence, op, late, silentMs });
    else emit({ t: "unexpected", agent: agent.name, what: `${op} #${number}: ${res.status} ${JSON.stringify(res.body)}` });
    return false;
  };
  /** The write the lost lease must refuse, sent until an instance answers it. */
  const lateWrite = async (op: string, send: () => Promise<Answer>): Promise<void> => {
    while ((await write(op, send)) === null) await sleep(500);
  };
  const heartbeat = () => answer(agent.call.POST("/api/tasks/{id}/heartbeat", { params: { path: { id } }, body: { fence } }));
  while (count < config.items) {
    const k = count + 1;
    const item = { task: number, k, by: agent.name, fence };
    const send = () => answer(agent.call.POST("/api/tasks/{id}/output", { params: { path: { id } }, body: { fence, from: k, items: [item] } }));
    const wrote = await write(`output ${k}`, send);
    if (wrote === false) return;
    if (wrote === null) {
      const now = await readTask(agent, id);
      if (now.fence !== fence || now.status !== "in_progress") {
        // The lease went while this host was unheard: the late write must be refused.
        await lateWrite(`output ${k}`, send);
        return;
      }
      count = now.outputCount;
      continue;
    }
    count = k;
    emit({ t: "wrote", agent: agent.name, number, k });
    if (Date.now() - lastBeat > (config.leaseSeconds * 1000) / 3) {
      if ((await write("heartbeat", heartbeat)) === false) return;
      lastBeat = Date.now();
    }
    await post(agent);
    await sleep(config.itemPaceMs);
  }
  const submit = () =>
    answer(agent.call.POST("/api/tasks/{id}/submit", { params: { path: { id } }, body: { fence, summary: `${config.items} items`, evidence: `items 1..${config.items}` } }));
  for (;;) {
    const done = await write("submit", submit);
    if (done === true) {
      emit({ t: "submitted", agent: agent.name, number, fence });
      return;
    }
    if (done === false) return;
    const now = await readTask(agent, id);
    if (now.fence === fence && (now.status === "review" || now.status === "done")) {
      emit({ t: "submitted", agent: agent.name, number, fence });
      return;
    }
    // The lease went (another agent may have finished the task meanwhile): the late submit must be refused.
    if (now.fence !== fence || now.status !== "in_progress") {
      await lateWrite("submit", submit);
      return;
    }
  }
}

async function workLoop(agent: Agent): Promise<void> {
  while (!stopping) {
    const res = await answer(agent.call.POST("/api/tasks/claim-next"));
    if (res?.status === 200) {
      const task = res.body;
      emit({ t: "claim", agent: agent.name, number: task.number, fence: task.fence });
      await workTask(agent, task);
      continue;
    }
    if (res && res.status !== 204 && res.status < 500) emit({ t: "unexpected", agent: agent.name, what: `claim-next: ${res.status} ${JSON.stringify(res.body)}` });
    await sleep(res?.status === 204 ? 200 : 500);
  }
}

/**
 * As fast as answers come for benchSeconds: LOOPS posting and LOOPS claiming-and-submitting loops per
 * agent (one of each left the server idle: a closed loop of 12 clients measures their latency, not a
 * ceiling). Posts are counted answered (written or refused by the gates: a refusal walks the same
 * facts and decision); claims over the span until the bench's tasks ran out, if they did.
 */
const LOOPS = 4;
async function benchLoops(agents: Agent[]): Promise<void> {
  const until = Date.now() + config.benchSeconds * 1000;
  let posts = 0;
  let claims = 0;
  let refused = 0;
  let ranOutAt: number | null = null;
  const poster = async (agent: Agent) => {
    while (Date.now() < until) {
      const r = await post(agent);
      if (r === "acked") posts++;
      else if (r === "refused") refused++;
    }
  };
  const claimer = async (agent: Agent) => {
    while (Date.now() < until) {
      const res = await answer(agent.call.POST("/api/tasks/claim-next"));
      if (res?.status === 204) ranOutAt ??= Date.now();
      if (res?.status !== 200) {
        await sleep(100);
        continue;
      }
      claims++;
      const { id, fence } = res.body;
      await answer(agent.call.POST("/api/tasks/{id}/submit", { params: { path: { id } }, body: { fence, summary: "bench", evidence: "bench" } }));
    }
  };
  /** After the clock: claim and submit what is left, so no bench task waits for the run that follows. */
  const drain = async (agent: Agent) => {
    for (;;) {
      const res = await answer(agent.call.POST("/api/tasks/claim-next"));
      if (res?.status === 204) return;
      if (res?.status !== 200) continue;
      const { id, fence } = res.body;
      await answer(agent.call.POST("/api/tasks/{id}/submit", { params: { path: { id } }, body: { fence, summary: "bench", evidence: "bench" } }));
    }
  };
  const started = Date.now();
  const cpuAtStart = process.cpuUsage();
  await Promise.all(agents.flatMap((a) => Array.from({ length: LOOPS }, () => [poster(a), claimer(a)]).flat()));
  // Its own CPU, told rather than read from /proc: the process may be gone before the runner looks.
  const cpu = process.cpuUsage(cpuAtStart);
  const seconds = (Date.now() - started) / 1000;
  emit({
    t: "bench",
    posts,
    claims,
    refused,
    seconds,
    claimSeconds: ranOutAt === null ? seconds : Math.max(0.1, (ranOutAt - started) / 1000),
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
  });
  await Promise.all(agents.map(drain));
}

const agents: Agent[] = config.agents.map((a, i) => ({
  name: a.name,
  call: spreadClient(config.instances, i + config.host.length, { key: a.key }, config.requestTimeoutMs),
  sent: 0,
}));
if (config.mode === "bench") await benchLoops(agents);
else await Promise.all(agents.map(workLoop));
emit({ t: "stopped" });
process.exit(0);
