// The human's desk: what waits for you is one count in the top strip, a badge by each rail page and an
// inbox whose items open where you act — live, with no reload.
import { expect, test, uniqueName } from "./fixtures";

test("a review and a request addressed to the human count in the strip and the rail, and each opens where the human acts", async ({
  page,
  signIn,
  registerAgent,
  asAgent,
  snap,
}) => {
  const human = await signIn(page, uniqueName("desk"));
  const coder = await registerAgent(uniqueName("coder"), "coder");
  const api = asAgent(coder);
  await page.goto("/room");
  await expect(page.getByTestId("live-status")).toHaveAttribute("data-status", "live");
  const pill = page.getByTestId("waiting-for-you");
  await expect(pill).toContainText("0");
  await expect(page.getByTestId("waiting-badge-board")).toHaveCount(0);

  // The human files a task (and approves it); the agent works it and submits it for review.
  const title = `Parse empty input ${uniqueName("t")}`;
  const created = await page.request.post("/api/tasks", { data: { title, acceptanceCriteria: "parse('') returns []" } });
  expect(created.status()).toBe(201);
  const task = await created.json();
  const claimed = await api.post(`/api/tasks/${task.id}/claim`);
  expect(claimed.status).toBe(200);
  expect((await api.post(`/api/tasks/${task.id}/submit`, { fence: claimed.body.fence, summary: "parse('') returns []", evidence: "✓ 3 passed" })).status).toBe(200);

  // No reload: the stream brings the count and the Board's badge.
  await expect(pill).toContainText("1");
  await expect(page.getByTestId("waiting-badge-board")).toHaveText("1");
  await expect(page.getByRole("link", { name: /^Board \(1 waiting for you\)/ })).toBeVisible();

  // A REQUEST addressed to the human in a room of theirs.
  const room = uniqueName("desk");
  expect((await page.request.post("/api/rooms", { data: { name: room } })).status()).toBe(201);
  expect((await api.post(`/api/rooms/${room}/messages`, { body: `@${human} may I delete the old parser?`, performative: "REQUEST", to: human })).status).toBe(201);
  await expect(pill).toContainText("2");
  await expect(page.getByTestId("waiting-badge-room")).toHaveText("1");

  // The inbox lists both in words, each a link to where it is decided.
  await pill.click();
  const inbox = page.getByTestId("waiting-inbox");
  await expect(inbox.getByTestId("waiting-item")).toHaveCount(2);
  await expect(inbox.getByTestId("waiting-item").nth(0)).toContainText(`Review #${task.number}`);
  await expect(inbox.getByTestId("waiting-item").nth(0)).toContainText(`${title} — by ${coder.name}`);
  await expect(inbox.getByTestId("waiting-item").nth(1)).toContainText(`${coder.name} asks in #${room}`);
  await snap(page, "desk-inbox");
  // Escape closes it, as it does every popover; on a phone it opens inside the screen.
  await page.keyboard.press("Escape");
  await expect(inbox).toBeHidden();
  const desktop = page.viewportSize()!;
  await page.setViewportSize({ width: 390, height: 844 });
  await pill.click();
  const box = (await inbox.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  await snap(page, "desk-inbox-390");
  await page.setViewportSize(desktop);

  // The review opens the drawer with Review focused: Enter opens the verdict.
  await inbox.getByTestId("waiting-item").nth(0).click();
  await expect(page).toHaveURL(/\/board\?task=/);
  const drawer = page.getByTestId("task-drawer");
  await expect(drawer).toContainText(title);
  await expect(drawer.getByRole("button", { name: "Review" })).toBeFocused();
  await page.keyboard.press("Enter");
  const review = page.getByRole("dialog", { name: /Review #/ });
  await review.getByLabel(/Approve/).check();
  await review.getByRole("button", { name: "Approve" }).click();
  await expect(review).toBeHidden();
  // The action answers: a toast here, and a line from Quorum in the room where the task was discussed.
  await expect(page.getByTestId("toast")).toHaveText(`Accepted #${task.number}: it is done.`);
  await expect(pill).toContainText("1");
  await expect(page.getByTestId("waiting-badge-board")).toHaveCount(0);

  // The request opens its room; answering it there takes it off the desk.
  await pill.click();
  await inbox.getByTestId("waiting-item").filter({ hasText: room }).click();
  await expect(page).toHaveURL(new RegExp(`/room/${room}$`));
  // Nobody had discussed the task in a room: Quorum said the verdict in #general.
  const general = await (await page.request.get("/api/rooms/general/messages?limit=50")).json();
  const said = general.items.find((m: { body: string }) => m.body === `${human} accepted #${task.number} “${title}”: it is done.`);
  expect(said).toMatchObject({ senderKind: "system", performative: "INFORM" });
  const composer = page.getByRole("textbox", { name: new RegExp(`Message #${room}`) });
  await composer.fill("Yes, delete it.");
  await composer.press("Enter");
  await expect(pill).toContainText("0");
  await expect(page.getByTestId("waiting-badge-room")).toHaveCount(0);
});
