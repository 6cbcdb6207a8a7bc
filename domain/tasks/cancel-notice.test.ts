// Cancelling a task someone is working on tells that agent at once, from the system, in a direct message.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { messages } from "../../db/schema";
import { getDb } from "../../db/client";
import { systemClock } from "../clock";
import { getSystemPrincipal } from "../principals/create-principal";
import { makeHuman } from "../../test/helpers";
import { makeReadyTask, makeTeam } from "../../test/fixtures/board";
import { cancelTask } from "./cancel";
import { claimTask } from "./claim";

const ADR = { title: "Superseded by #9", context: "Covered by the parser rewrite.", decision: "Cancel.", consequences: "Nothing lost." };

const notices = (taskId: string) => getDb().select().from(messages).where(eq(messages.taskId, taskId));

describe("cancelling a task in progress", () => {
  it("tells its holder to stop, naming who cancelled it, the ADR and the fence that will be refused", async () => {
    const { lead, workers } = await makeTeam(1);
    const human = await makeHuman();
    const task = await makeReadyTask(lead);
    const claimed = await claimTask(getDb(), workers[0], task.id, systemClock);
    await cancelTask(getDb(), human, task.id, { adr: ADR }, systemClock);
    const [notice] = await notices(task.id);
    expect(notice.senderId).toBe((await getSystemPrincipal(getDb())).id);
    expect(notice.toId).toBe(workers[0].id);
    expect(notice.body).toContain(`was cancelled by ${human.name} (ADR “${ADR.title}”): stop working on it`);
    expect(notice.body).toContain(`fence ${claimed.fence} will be refused`);
  });

  it("tells no one when nobody was working on it", async () => {
    const { lead } = await makeTeam(1);
    const ready = await makeReadyTask(lead);
    await cancelTask(getDb(), lead, ready.id, { adr: ADR }, systemClock);
    expect(await notices(ready.id)).toEqual([]);
  });
});
