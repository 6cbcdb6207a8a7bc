// A scripted team hears the room but cannot change course: a human's @coder message during its run is
// delivered into the run's next turn, and the coder says in the room that it heard and keeps its script.
// The team's own REQUESTs and DONEs are not acknowledged (only people steer).
import { and, eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { events, messages } from "../../db/schema";
import { systemClock } from "../../domain/clock";
import { postMessage } from "../../domain/rooms/post-message";
import { flightTaskIds, launchScratchFlight, settledStatus, startWorker, until } from "../../test/fixtures/team";
import { TEAM_ROOM } from "./speak";

it("a scripted coder acknowledges a human's @mention once, keeps its script, and the flight goes green", { timeout: 120_000 }, async () => {
  const { db, human, team, flight } = await launchScratchFlight({ testCommand: "sleep 2 && node --test" });
  const worker = startWorker();
  try {
    const [, taskId] = await until("the plan", async () => {
      const ids = await flightTaskIds(flight.id);
      return ids.length > 1 ? ids : null;
    });
    const coder = team.coders[0].principal;
    await until("the coder's tests", async () =>
      (
        await db
          .select()
          .from(events)
          .where(and(eq(events.taskId, taskId), eq(events.kind, "ToolDispatched")))
      ).find((e) => e.actor === coder.id && (e.data as { tool: string }).tool === "run_tests"),
    );
    await postMessage(db, human, TEAM_ROOM, { body: `@${coder.name} keep the exported names` }, systemClock);
    expect(await until("the flight to settle", () => settledStatus(flight.id))).toBe("green");
    const fromCoder = (await db.select().from(messages).where(eq(messages.senderId, coder.id))).map((m) => m.body);
    const acks = fromCoder.filter((body) => body.includes("keep my script"));
    expect(acks).toHaveLength(1);
    expect(acks[0]).toContain(`@${human.name} heard "@${coder.name} keep the exported names"`);
    // Nobody else on the team acknowledged the team's own messages.
    const others = await db.select().from(messages).where(eq(messages.room, TEAM_ROOM));
    expect(others.filter((m) => m.body.includes("keep my script") && m.senderId !== coder.id).map((m) => m.body)).toEqual([]);
  } finally {
    await worker.stop();
  }
});
