// `quorum webhook add|list|test|remove`: the operator's hands on webhooks, acting as the local human.
import { describe, expect, it } from "vitest";
import { getDb } from "../db/client";
import { webhookCommand } from "./webhook";

function capture() {
  const lines: string[] = [];
  return { lines, print: (line: string) => void lines.push(line) };
}

describe("quorum webhook", () => {
  it("adds an endpoint (secret printed once), lists it, queues a test and removes it; refuses a bad URL or event type", async () => {
    process.env.QUORUM_HUMAN = "cli-operator";
    const added = capture();
    expect(await webhookCommand(getDb(), ["add", "https://example.test/hook", "--events", "escalation.opened,agent.stalled", "--description", "pager"], added.print)).toBe(0);
    const id = /^Webhook (\S+) → https:\/\/example\.test\/hook \(escalation\.opened, agent\.stalled\)\.$/.exec(added.lines[0])?.[1];
    expect(id).toBeDefined();
    expect(added.lines[1]).toMatch(/whsec_[A-Za-z0-9+/]{43}=/);

    const listed = capture();
    expect(await webhookCommand(getDb(), ["list"], listed.print)).toBe(0);
    expect(listed.lines).toEqual([`${id}  active  https://example.test/hook  [escalation.opened, agent.stalled]  no deliveries yet`]);
    expect(listed.lines.join("\n")).not.toContain("whsec_");

    const tested = capture();
    expect(await webhookCommand(getDb(), ["test", id!], tested.print)).toBe(0);
    const after = capture();
    await webhookCommand(getDb(), ["list"], after.print);
    expect(after.lines[0]).toContain("last: webhook.test pending");

    expect(await webhookCommand(getDb(), ["remove", id!], capture().print)).toBe(0);
    const empty = capture();
    await webhookCommand(getDb(), ["list"], empty.print);
    expect(empty.lines).toEqual(["No webhooks."]);

    const refused = capture();
    expect(await webhookCommand(getDb(), ["add", "ftp://example.test", "--events", "agent.stalled"], refused.print)).toBe(1);
    expect(await webhookCommand(getDb(), ["add", "https://example.test", "--events", "task.done"], refused.print)).toBe(1);
    expect(await webhookCommand(getDb(), ["add", "https://example.test"], refused.print)).toBe(1);
    expect(refused.lines.join("\n")).toContain("quorum webhook add URL --events");
  });
});
