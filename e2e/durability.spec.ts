// Acknowledged means committed: SIGKILL the whole server (Postgres included), start again, all there.
import { expect, test } from "@playwright/test";
import { killQuorum, newHome, quorumCli, startQuorum, stopQuorum } from "./server";

test("every acknowledged message survives a SIGKILL of the server and its database", async ({ request }) => {
  test.setTimeout(180_000);
  const home = newHome();
  const first = await startQuorum(home);
  // A human writes: the room's gates throttle agents (one agent alone may not post 40 in a row), never humans.
  const link = (await quorumCli(first.env, ["human", "add", "scribe"])).trim();
  expect((await request.get(link)).ok()).toBe(true); // the session cookie stays in this request context
  const headers = { "Content-Type": "application/json" };

  const acknowledged: number[] = [];
  const posts = Array.from({ length: 40 }, async (_, i) => {
    const res = await request.post(`${first.baseURL}/api/rooms/general/messages`, { headers, data: { body: `entry ${i}` } });
    if (res.status() === 201) acknowledged.push((await res.json()).seq);
  });
  await Promise.all(posts);
  expect(acknowledged.length).toBe(40);
  await killQuorum(first);

  const second = await startQuorum(home, first.port);
  try {
    const res = await request.get(`${second.baseURL}/api/rooms/general/messages?after=0&limit=500`, { headers });
    expect(res.status()).toBe(200);
    const seqs = (await res.json()).items.map((m: { seq: number }) => m.seq);
    for (const seq of acknowledged) expect(seqs).toContain(seq);
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
  } finally {
    await stopQuorum(second);
  }
});
