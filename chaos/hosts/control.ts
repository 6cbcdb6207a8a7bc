// The control host (never cut off): signs the operator in, registers the agents, files tasks, watches every
// instance's event stream as a human and as an agent, accepts submitted work, and in the end reads
// everything back and checks it against what the agent hosts were told.
// Usage: control.ts setup|tasks|watch|check CONFIG.json — prints one JSON line per result.
import { readFileSync, writeFileSync } from "node:fs";
import type { QuorumClient } from "../../client";
import { type AgentLine, answer, type Answer, type Body, emitLine, sleep, spreadClient } from "./wire";

export interface ControlConfig {
  instances: string[];
  signInUrl: string;
  cookie?: string;
  /** setup: the agents to register. */
  agents?: string[];
  /** tasks: how many to file, with this title prefix. */
  tasks?: { count: number; prefix: string };
  /** watch: the agent that watches as a viewer who may not see others' direct messages. */
  watcher?: { name: string; key: string };
  /** watch: journal events up to this id came before the streams opened. */
  journalHead?: number;
  /** watch writes the stream ids here when stopped; check reads them. */
  streamsFile?: string;
  /** check: every line the agent hosts printed. */
  linesFile?: string;
  items?: number;
  room?: string;
  requestTimeoutMs?: number;
}

const [mode, file] = process.argv.slice(2);
const config = JSON.parse(readFileSync(file, "utf8")) as ControlConfig;
// A request stuck on a quiet socket must time out, not let Node quit with exit 13 (see agent-host.ts).
setInterval(() => {}, 1_000);
const timeout = config.requestTimeoutMs ?? 3_000;
const human = () => spreadClient(config.instances, 0, { cookie: config.cookie }, timeout);

/** Retries a call until an instance answers it (the control host is never cut, but instances are). */
async function until(call: () => Promise<Answer>, what: string, tries = 60): Promise<{ status: number; body: Body }> {
  for (let i = 0; i < tries; i++) {
    const res = await call();
    if (res && res.status < 500) return res;
    await sleep(500);
  }
  throw new Error(`${what}: no instance answered`);
}

async function readAll(what: string, page: (after: number) => Promise<Answer>, cursor: (body: Body) => number | undefined = (b) => b.next): Promise<Body[]> {
  const items: Body[] = [];
  for (let after = 0; ; ) {
    const res = await until(() => page(after), what);
    if (res.status !== 200) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
    items.push(...res.body.items);
    const next = cursor(res.body);
    if (next === undefined) return items;
    after = next;
  }
}

async function journal(call: QuorumClient, after: number, kind?: string): Promise<Body[]> {
  const all = await readAll(`journal ${kind ?? ""}`, (from) =>
    answer(call.GET("/api/journal", { params: { query: { after: Math.max(after, from), limit: 500, ...(kind ? { kind } : {}) } } })),
  );
  return all;
}

async function setup(): Promise<void> {
  // The sign-in link is made for one instance's address; any instance honours it (one database).
  const res = await fetch(config.signInUrl, { redirect: "manual" });
  const cookie = res.headers.get("set-cookie")?.split(";")[0];
  if (!cookie) throw new Error(`the sign-in link set no cookie (${res.status})`);
  const call = spreadClient(config.instances, 0, { cookie }, timeout);
  const agents: { name: string; key: string }[] = [];
  for (const name of config.agents ?? []) {
    const made = await until(() => answer(call.POST("/api/agents", { body: { name, role: "coder" } })), `register ${name}`);
    if (made.status !== 201) throw new Error(`register ${name}: ${made.status} ${JSON.stringify(made.body)}`);
    agents.push({ name, key: made.body.key });
  }
  const head = await until(() => answer(call.GET("/api/journal", { params: { query: { limit: 1 } } })), "journal head");
  emitLine({ cookie, agents, journalHead: head.body.items[0]?.id ?? 0 });
}

async function fileTasks(): Promise<void> {
  const call = human();
  const { count, prefix } = config.tasks!;
  let created = 0;
  const one = async (i: number) => {
    const body = { title: `${prefix} ${i}`, acceptanceCriteria: `${config.items ?? 0} output items, in order, each once` };
    // A create that got no answer may still have committed: filing it again makes an extra task, which the
    // checks treat as any other (it is worked and accepted too), so no ledger of creates is kept.
    await until(() => answer(call.POST("/api/tasks", { body })), `file task ${i}`);
    created++;
  };
  for (let i = 0; i < count; i += 8) await Promise.all(Array.from({ length: Math.min(8, count - i) }, (_, j) => one(i + j)));
  emitLine({ created });
}

interface Stream {
  instance: string;
  viewer: string;
  ids: Set<number>;
  reconnects: number;
}

/**
 * One event stream, opened on `stream.instance`; after an end, an error or 12 s of silence it reconnects
 * with Last-Event-ID to the next instance, as a load balancer without sticky sessions may send it: the
 * instances' announcers stand at different places in the journal, and nothing may be lost for that.
 */
function follow(stream: Stream, auth: Record<string, string>, after: number, stop: AbortSignal): Promise<void> {
  let last = after;
  let attempt = 0;
  const once = async () => {
    const silence = new AbortController();
    let timer = setTimeout(() => silence.abort(), 12_000);
    const signal = AbortSignal.any([stop, silence.signal]);
    const at = config.instances[(config.instances.indexOf(stream.instance) + attempt++) % config.instances.length];
    try {
      const res = await fetch(`${at}/api/stream`, { headers: { ...auth, "last-event-id": String(last) }, signal });
      if (!res.ok || !res.body) return;
      let buffer = "";
      const decoder = new TextDecoder();
      const reader = res.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        clearTimeout(timer);
        timer = setTimeout(() => silence.abort(), 12_000);
        buffer += decoder.decode(value, { stream: true });
        for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const id = /^id: (\d+)$/m.exec(frame);
          if (id) {
            stream.ids.add(Number(id[1]));
            last = Number(id[1]);
          }
        }
      }
    } catch {
      // cut off, silent too long, or stopped
    } finally {
      clearTimeout(timer);
    }
  };
  return (async () => {
    while (!stop.aborted) {
      await once();
      if (stop.aborted) return;
      stream.reconnects++;
      await sleep(500);
    }
  })();
}

async function watch(): Promise<void> {
  const stop = new AbortController();
  const streams: Stream[] = [];
  const running: Promise<void>[] = [];
  for (const instance of config.instances) {
    for (const [viewer, auth] of [
      ["human", { cookie: config.cookie! }],
      [config.watcher!.name, { authorization: `Bearer ${config.watcher!.key}` }],
    ] as const) {
      const stream: Stream = { instance, viewer, ids: new Set(), reconnects: 0 };
      streams.push(stream);
      running.push(follow(stream, auth, config.journalHead ?? 0, stop.signal));
    }
  }
  let stopping = false;
  process.on("SIGTERM", () => {
    stopping = true;
  });
  const call = human();
  // The approver's desk: accept whatever is in review; report how many tasks are still open.
  while (!stopping) {
    const open = await answer(call.GET("/api/tasks", { params: { query: { status: "ready,in_progress,review", limit: 500 } } }));
    if (open?.status === 200) {
      for (const task of open.body.items.filter((t: Body) => t.status === "review")) {
        await answer(call.POST("/api/tasks/{id}/review", { params: { path: { id: task.id } }, body: { verdict: "accept" } }));
      }
      emitLine({ open: open.body.items.length });
    }
    await sleep(500);
  }
  // The stragglers: let every stream receive the last events before closing them.
  await sleep(3_000);
  stop.abort();
  await Promise.all(running);
  writeFileSync(config.streamsFile!, JSON.stringify(streams.map((s) => ({ ...s, ids: [...s.ids] }))));
  emitLine({ watched: streams.length });
}

async function check(): Promise<void> {
  const call = human();
  const lines = readFileSync(config.linesFile!, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as AgentLine & { host: string });
  const problems: string[] = [];
  const say = (what: string) => {
    if (problems.length < 40) problems.push(what);
  };

  // Every task done, submitted once, accepted once; every claim either submitted or expired, and swept once.
  const tasks = await readAll("tasks", (before) => answer(call.GET("/api/tasks", { params: { query: { limit: 500, ...(before ? { before } : {}) } } })));
  const events = await journal(call, 0);
  const byTask = new Map<string, Body[]>();
  for (const e of events) if (e.taskId) byTask.set(e.taskId, [...(byTask.get(e.taskId) ?? []), e]);
  let notDone = 0;
  let sweptTwice = 0;
  let unswept = 0;
  let expiries = 0;
  let itemsChecked = 0;
  let itemProblems = 0;
  for (const task of tasks) {
    const mine = byTask.get(task.id) ?? [];
    const count = (kind: string, fence?: number) => mine.filter((e) => e.kind === kind && (fence === undefined || e.data.fence === fence)).length;
    if (task.status !== "done") {
      notDone++;
      say(`task #${task.number} is ${task.status}`);
    }
    if (count("TaskSubmitted") !== 1) say(`task #${task.number} submitted ${count("TaskSubmitted")} times`);
    const accepts = mine.filter((e) => e.kind === "TaskReviewed" && e.data.verdict === "accept").length;
    if (accepts !== 1) say(`task #${task.number} accepted ${accepts} times`);
    for (const claim of mine.filter((e) => e.kind === "TaskClaimed")) {
      const fence = claim.data.fence as number;
      const expired = count("LeaseExpired", fence);
      expiries += expired;
      if (count("TaskSubmitted", fence) === 1) {
        if (expired !== 0) say(`task #${task.number} fence ${fence}: submitted and expired`);
      } else if (expired === 0) {
        unswept++;
        say(`task #${task.number} fence ${fence}: neither submitted nor expired`);
      } else if (expired > 1) {
        sweptTwice++;
        say(`task #${task.number} fence ${fence}: ${expired} LeaseExpired events`);
      }
    }
    // The output: items k = 1..n in order, each once, n the full count for every task that was worked.
    if (task.outputCount === 0) continue;
    const items = await readAll(
      `output of #${task.number}`,
      (after) => answer(call.GET("/api/tasks/{id}/output", { params: { path: { id: task.id }, query: { after, limit: 1000 } } })),
      (b) => (b.items.length === 1000 ? b.items.at(-1).seq : undefined),
    );
    itemsChecked += items.length;
    const ks = items.map((i: Body) => i.item.k).join(",");
    const want = Array.from({ length: config.items! }, (_, i) => i + 1).join(",");
    if (ks !== want) {
      itemProblems++;
      say(`task #${task.number}: items ${ks}, want ${want}`);
    }
  }

  // Every acknowledged post present, unchanged, with gap-free seq in its room.
  const acked = lines.filter((l) => l.t === "post") as Extract<AgentLine, { t: "post" }>[];
  const messages = await readAll("messages", (after) => answer(call.GET("/api/rooms/{room}/messages", { params: { path: { room: config.room! }, query: { after, limit: 500 } } })));
  const seqs = messages.map((m: Body) => m.seq as number);
  const gaps = seqs.filter((s: number, i: number) => s !== i + 1).length;
  const byId = new Map(messages.map((m: Body) => [m.id, m]));
  let lost = 0;
  for (const a of acked) {
    const m = byId.get(a.id);
    if (!m || m.seq !== a.seq || m.body !== a.body || m.senderName !== a.sender) {
      lost++;
      say(`acked post ${a.room}#${a.seq} "${a.body}": ${m ? "changed" : "missing"}`);
    }
  }

  // Every stream holds every event its viewer may see (the journal as that viewer) after the head.
  const streams = JSON.parse(readFileSync(config.streamsFile!, "utf8")) as { instance: string; viewer: string; ids: number[]; reconnects: number }[];
  const watcherCall = spreadClient(config.instances, 0, { key: config.watcher!.key }, timeout);
  const visible = {
    human: events.filter((e) => e.id > config.journalHead!).map((e) => e.id as number),
    watcher: (await journal(watcherCall, config.journalHead!)).map((e) => e.id as number),
  };
  const byEventId = new Map(events.map((e) => [e.id as number, e]));
  const sse = streams.map((s) => {
    const want = s.viewer === "human" ? visible.human : visible.watcher;
    const got = new Set(s.ids);
    const missing = want.filter((id) => !got.has(id));
    const extra = s.ids.filter((id) => !want.includes(id)).length;
    if (missing.length) {
      say(`stream ${s.viewer}@${s.instance}: ${missing.length} of ${want.length} events missing (first ${missing.slice(0, 5).join(",")})`);
      // What was missed, and where in the stream's own order it should have come: a lost notice and a
      // lost catch-up look different here.
      for (const id of missing.slice(0, 5)) {
        const e = byEventId.get(id);
        const at = s.ids.findIndex((x) => x > id);
        say(`  missing ${id}: ${e?.kind ?? "?"} by ${e?.actorName ?? e?.actor ?? "?"}; the stream got … ${s.ids.slice(Math.max(0, at - 4), at + 4).join(",")} … around it`);
      }
    }
    return { instance: s.instance, viewer: s.viewer, want: want.length, got: got.size, missing: missing.length, extra, reconnects: s.reconnects };
  });

  const stale = lines.filter((l) => l.t === "stale") as Extract<AgentLine, { t: "stale" }>[];
  const lateAccepted = lines.filter((l) => l.t === "lateAccepted");
  const unexpected = lines.filter((l) => l.t === "unexpected") as Extract<AgentLine, { t: "unexpected" }>[];
  for (const u of unexpected.slice(0, 10)) say(`unexpected: ${u.agent} ${u.what}`);
  emitLine({
    check: {
      tasks: tasks.length,
      notDone,
      claims: events.filter((e) => e.kind === "TaskClaimed").length,
      expiries,
      sweptTwice,
      unswept,
      itemsChecked,
      itemProblems,
      acked: acked.length,
      postsUnknown: lines.filter((l) => l.t === "postUnknown").length,
      messages: messages.length,
      gaps,
      lost,
      lateWrites: stale.filter((s) => s.late).length + lateAccepted.length,
      lateRefused: stale.filter((s) => s.late).length,
      lateAccepted: lateAccepted.length,
      staleInTime: stale.filter((s) => !s.late).length,
      unexpected: unexpected.length,
      sse,
      problems,
    },
  });
}

const modes: Record<string, () => Promise<void>> = { setup, tasks: fileTasks, watch, check };
await modes[mode]();
process.exit(0);
