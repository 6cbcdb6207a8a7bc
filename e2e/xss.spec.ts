// XSS probes: everything a human or an agent can write — names, roles, bodies, payloads, tasks, ADRs,
// decisions, commitments, lessons, reservations — is stored with markup and script in it, then every
// page that shows it is opened in Chromium. Each page must show the text literally, run no script,
// open no dialog and carry no element, inline handler or javascript: link that the text smuggled in.
import { randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import { expect, test, uniqueName } from "./fixtures";

// Every injected element carries `data-xss`, which no component renders: finding one means markup got through.
const PAYLOADS = [
  `<img data-xss src=x onerror="window.__xss=(window.__xss||0)+1;alert('img')">`,
  `<script data-xss>window.__xss=(window.__xss||0)+1;alert('script')</script>`,
  `<svg data-xss onload="window.__xss=(window.__xss||0)+1;alert('svg')"></svg>`,
  `<a data-xss href="javascript:window.__xss=1">open</a> javascript:alert('link')`,
  `"'><b data-xss>bold</b><iframe data-xss srcdoc="<script>parent.__xss=1</script>">`,
];

/** What this run probed, printed as one line for `npm run chaos`. */
const report = { fields: 0, payloads: PAYLOADS.length, pagesProbed: 0, pagesWithFindings: 0 };
test.afterAll(() => console.log(JSON.stringify({ xss: report })));

/** A distinct hostile text per field (so each can be found), cycling through the payloads two at a time. */
function hostileWriter() {
  const tag = randomBytes(3).toString("hex");
  let i = 0;
  return (label: string) => {
    const text = `${label} ${tag} ${PAYLOADS[i % PAYLOADS.length]} ${PAYLOADS[(i + 1) % PAYLOADS.length]}`;
    i++;
    report.fields++;
    return text;
  };
}

interface Inertness {
  xss: unknown;
  injected: string[];
  inlineHandlers: string[];
  scriptLinks: string[];
}

/** What a script-free page looks like: nothing ran, nothing was injected, no dialog opened. */
async function expectInert(page: Page, dialogs: string[], where: string) {
  const found = await page.evaluate((): Inertness => {
    const all = [...document.querySelectorAll("*")];
    return {
      xss: (window as unknown as { __xss?: unknown }).__xss,
      injected: [...document.querySelectorAll("[data-xss]")].map((el) => el.outerHTML.slice(0, 120)),
      inlineHandlers: all.flatMap((el) => [...el.attributes].filter((a) => /^on/i.test(a.name)).map((a) => `<${el.tagName.toLowerCase()} ${a.name}>`)),
      scriptLinks: all
        .flatMap((el) => ["href", "src", "action", "formaction", "xlink:href"].map((name) => el.getAttribute(name) ?? ""))
        .filter((value) => /^\s*javascript:/i.test(value)),
    };
  });
  report.pagesProbed++;
  if (found.xss !== undefined || found.injected.length || found.inlineHandlers.length || found.scriptLinks.length || dialogs.length) report.pagesWithFindings++;
  expect(found, `${where}: no script ran and no markup got in`).toEqual({ xss: undefined, injected: [], inlineHandlers: [], scriptLinks: [] });
  expect(dialogs, `${where}: no dialog opened`).toEqual([]);
}

test("hostile names, bodies, tasks, ADRs, decisions, commitments and memory render as inert text on every page", async ({ page, baseURL, signIn, cli, registerAgent, asAgent }) => {
  test.setTimeout(120_000);
  const dialogs: string[] = [];
  page.on("dialog", async (dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    await dialog.dismiss();
  });
  const hostile = hostileWriter();
  const human = await signIn(page);
  const asHuman = async (path: string, data: unknown) => {
    const res = await page.request.post(`${baseURL}${path}`, { data });
    return { status: res.status(), body: await res.json() };
  };

  // Names and room names refuse markup outright; what they accept at worst looks like JavaScript's own keys.
  expect((await asHuman("/api/agents", { name: PAYLOADS[0], role: "coder" })).status).toBe(400);
  expect((await asHuman("/api/rooms", { name: PAYLOADS[2] })).status).toBe(400);
  await expect(cli(["human", "add", PAYLOADS[4]])).rejects.toThrow(/invalid name/);
  // Roles are free text: the roster and the presence list show them.
  const role = `<img data-xss src=x onerror=alert('role')>`;
  const coder = await registerAgent(`constructor.__proto__-${randomBytes(3).toString("hex")}`, role);
  const reviewer = await registerAgent(uniqueName("toString"), "reviewer");
  const coderApi = asAgent(coder);
  const reviewerApi = asAgent(reviewer);

  // Tasks: one done through claim, output, submit and review; one cancelled with an ADR; one in progress.
  const done = { title: hostile("title"), description: hostile("description"), acceptanceCriteria: hostile("criteria") };
  const t1 = await asHuman("/api/tasks", done);
  expect(t1.status).toBe(201);
  expect((await coderApi.post(`/api/tasks/${t1.body.id}/claim`)).status).toBe(200);
  const outputItem = { note: hostile("output"), nested: [hostile("output-nested")] };
  expect((await coderApi.post(`/api/tasks/${t1.body.id}/output`, { fence: 1, items: [outputItem] })).status).toBe(200);
  const room = `xss-${randomBytes(3).toString("hex")}`;
  expect((await asHuman("/api/rooms", { name: room })).status).toBe(201);
  const humanSays = hostile("human-body");
  const humanPost = await asHuman(`/api/rooms/${room}/messages`, { body: humanSays });
  expect(humanPost.status).toBe(201);
  expect((await coderApi.post(`/api/rooms/${room}/cursor`, { seq: humanPost.body.seq })).status).toBe(200);
  const agentSays = hostile("agent-body");
  const payload = { html: hostile("payload"), [PAYLOADS[1]]: [PAYLOADS[3]] };
  const agentPost = await coderApi.post(`/api/rooms/${room}/messages`, { body: agentSays, performative: "INFORM", taskId: t1.body.id, payload });
  expect(agentPost.status).toBe(201);
  expect(agentPost.body.payload).toEqual(payload);
  const directSays = hostile("direct-body");
  expect((await coderApi.post(`/api/rooms/${room}/messages`, { body: directSays, to: human })).status).toBe(201);
  // The same body again is a duplicate: the refused text is shown in the room's gate strip (until the coder posts again).
  expect((await coderApi.post(`/api/rooms/${room}/messages`, { body: agentSays })).body.error).toBe("duplicate");
  const submission = { summary: hostile("summary"), evidence: hostile("evidence") };
  expect((await coderApi.post(`/api/tasks/${t1.body.id}/submit`, { fence: 1, ...submission })).status).toBe(200);
  const verdict = hostile("review-reason");
  expect((await asHuman(`/api/tasks/${t1.body.id}/review`, { verdict: "accept", reason: verdict })).status).toBe(200);

  const cancelled = { title: hostile("cancelled-title"), acceptanceCriteria: hostile("cancelled-criteria") };
  const t2 = await asHuman("/api/tasks", cancelled);
  expect(t2.status).toBe(201);
  const adr = { title: hostile("adr-title"), context: hostile("adr-context"), decision: hostile("adr-decision"), consequences: hostile("adr-consequences") };
  expect((await asHuman(`/api/tasks/${t2.body.id}/cancel`, { adr })).status).toBe(200);

  const working = { title: hostile("working-title"), acceptanceCriteria: hostile("working-criteria") };
  const t3 = await asHuman("/api/tasks", working);
  expect(t3.status).toBe(201);
  expect((await reviewerApi.post(`/api/tasks/${t3.body.id}/claim`)).status).toBe(200);
  const reservationReason = hostile("reservation-reason");
  const reserved = await reviewerApi.post("/api/reservations", { patterns: [`src/xss-${randomBytes(3).toString("hex")}/**`], reason: reservationReason, taskId: t3.body.id });
  expect(reserved.status).toBe(201);

  // Decisions: one open with a ballot; one escalated to the humans by a tie at quorum.
  const open = { question: hostile("question"), options: [hostile("option-a"), hostile("option-b")], consequence: hostile("consequence") };
  const d1 = await coderApi.post("/api/decisions", { ...open, defaultOption: open.options[1], quorum: 3, timeboxSeconds: 3600, escalationTimeboxSeconds: 3600 });
  expect(d1.status).toBe(201);
  const reasoning = hostile("reasoning");
  expect((await coderApi.post(`/api/decisions/${d1.body.id}/ballots`, { option: open.options[0], reasoning })).status).toBe(201);
  const tied = { question: hostile("escalated-question"), options: [hostile("escalated-a"), hostile("escalated-b")], consequence: hostile("escalated-consequence") };
  const d2 = await coderApi.post("/api/decisions", { ...tied, defaultOption: tied.options[0], quorum: 2, timeboxSeconds: 3600, escalationTimeboxSeconds: 3600 });
  expect(d2.status).toBe(201);
  expect((await coderApi.post(`/api/decisions/${d2.body.id}/ballots`, { option: tied.options[0], reasoning: hostile("tie-a") })).status).toBe(201);
  expect((await reviewerApi.post(`/api/decisions/${d2.body.id}/ballots`, { option: tied.options[1], reasoning: hostile("tie-b") })).status).toBe(201);
  expect((await coderApi.get(`/api/decisions/${d2.body.id}`)).body.status).toBe("escalated");

  // The commitment ledger and memory.
  const promise = hostile("commitment");
  const c1 = await coderApi.post("/api/commitments", { what: promise, dueAt: new Date(Date.now() + 3_600_000).toISOString() });
  expect(c1.status).toBe(201);
  expect((await coderApi.post(`/api/commitments/${c1.body.id}/confirm`)).status).toBe(200);
  const lesson = hostile("lesson");
  expect((await coderApi.post("/api/lessons", { text: lesson })).status).toBe(201);
  const principle = hostile("principle");
  expect((await asHuman("/api/principles", { text: principle })).status).toBe(201);

  const live = () => expect(page.getByTestId("live-status")).toHaveAttribute("data-status", "live");
  const shows = async (text: string, scope = page.locator("body")) => expect(scope.getByText(text).first()).toBeVisible();

  await test.step("Room: bodies, the direct message, the gate strip and the roles in presence", async () => {
    await page.goto(`/room/${room}`);
    await live();
    for (const text of [humanSays, agentSays, directSays]) await expect(page.getByTestId("message").filter({ hasText: text })).toBeVisible();
    await expect(page.getByTestId("gate-rejection").filter({ hasText: agentSays })).toHaveAttribute("data-gate", "duplicate");
    await expect(page.getByTestId("presence-entry").filter({ hasText: coder.name })).toContainText(role);
    await expectInert(page, dialogs, "room");
  });

  await test.step("Board: cards, the drawer of the done task, the cancelled task's ADR", async () => {
    await page.goto("/board");
    await live();
    await shows(working.title, page.getByTestId("column-in_progress"));
    const card = page.getByTestId("column-done").getByTestId("task-card").filter({ hasText: done.title });
    await card.click();
    const drawer = page.getByTestId("task-drawer");
    for (const text of [done.description, done.acceptanceCriteria, submission.summary, submission.evidence, verdict, agentSays]) await shows(text, drawer);
    await drawer.getByText("items", { exact: true }).click();
    await expect(drawer.locator("pre").filter({ hasText: JSON.stringify(outputItem) })).toBeVisible();
    await expectInert(page, dialogs, "board, done task's drawer");

    await page.getByRole("button", { name: /Cancelled/ }).click();
    await page.getByTestId("column-cancelled").getByTestId("task-card").filter({ hasText: cancelled.title }).click();
    for (const text of Object.values(adr)) await shows(text, drawer.getByTestId("adr"));
    await shows(cancelled.acceptanceCriteria, drawer);
    await page.getByTestId("column-in_progress").getByTestId("task-card").filter({ hasText: working.title }).click();
    await shows(reservationReason, drawer);
    await expectInert(page, dialogs, "board, cancelled and in-progress drawers");
  });

  await test.step("Journal: the explorer, an expanded event's JSON, a task's thread and audit", async () => {
    await page.goto("/journal");
    await live();
    await expect(page.getByTestId("journal-row").first()).toBeVisible();
    await expectInert(page, dialogs, "journal");
    const sent = await coderApi.get(`/api/journal?kind=MessageSent&actor=${coder.id}&limit=50`);
    const event = sent.body.items.find((e: { data: { body: string } }) => e.data.body === agentSays);
    expect(event).toBeDefined();
    await page.goto(`/journal?at=${event.id}`);
    await expect(page.locator(`#event-${event.id} pre`)).toContainText(JSON.stringify(agentSays));
    await expectInert(page, dialogs, "journal, expanded MessageSent");
    await page.goto(`/journal?task=${t1.body.id}&view=thread`);
    await shows(agentSays);
    await expectInert(page, dialogs, "journal, task thread");
    await page.goto(`/journal?task=${t1.body.id}&view=audit`);
    await shows(verdict);
    await expectInert(page, dialogs, "journal, task audit");
  });

  await test.step("Decisions: the open card with its reasoning, the escalation envelope and its buttons", async () => {
    await page.goto("/decisions");
    await live();
    const card = page.getByTestId("decision-card").filter({ hasText: open.question });
    await shows(open.consequence, card);
    await card.getByTestId("option-bar").filter({ hasText: open.options[0] }).hover();
    await shows(reasoning, card);
    await expectInert(page, dialogs, "decisions");
    await page.goto("/decisions/escalations");
    const escalation = page.getByTestId("escalation").filter({ hasText: tied.question });
    await expect(escalation.getByTestId("envelope").locator("p").first()).toHaveText(`Decide: ${tied.question}`);
    for (const option of tied.options) await expect(escalation.getByRole("button", { name: option })).toBeVisible();
    await expectInert(page, dialogs, "escalations");
  });

  await test.step("Commitments: the ledger and the graph", async () => {
    await page.goto("/commitments");
    await live();
    await shows(promise, page.getByTestId("ledger"));
    // A graph node clips its text; the full text is the node's tooltip (an SVG <title>).
    await expect(page.locator(`[data-testid=graph-node][data-number="${c1.body.number}"] title`)).toContainText(promise);
    await expectInert(page, dialogs, "commitments");
  });

  await test.step("Agents, an agent's page, Principles and Bill", async () => {
    await page.goto("/agents");
    await live();
    await shows(role, page.getByTestId("roster-row").filter({ hasText: coder.name }));
    await shows(working.title, page.getByTestId("roster-row").filter({ hasText: reviewer.name }));
    await shows(reservationReason);
    await shows(lesson);
    await shows(principle);
    await expectInert(page, dialogs, "agents");
    await page.goto(`/agents/${coder.id}`);
    await shows(role);
    await expectInert(page, dialogs, "agent page");
    await page.goto("/principles");
    await shows(lesson);
    await shows(principle);
    await expectInert(page, dialogs, "principles");
    await page.goto("/bill");
    await live();
    await expectInert(page, dialogs, "bill");
  });
});
