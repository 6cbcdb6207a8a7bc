// A refusal made from a caught error keeps that error as its cause (for whoever reads the logs), and the
// client's body never carries it.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { QuorumError } from "@/domain/errors";
import { handle, readBody } from "./handler";

const postOf = (body: string) => new Request("http://localhost/api/tasks", { method: "POST", headers: { "content-type": "application/json" }, body });
const anyBody = z.strictObject({});

describe("a body that is not JSON", () => {
  it("is refused as invalid with the parser's error as the refusal's cause", async () => {
    const refusal: unknown = await readBody(postOf('{"title": '), anyBody).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(QuorumError);
    expect(refusal).toMatchObject({ kind: "invalid", code: "invalid", message: "the body is not valid JSON" });
    expect((refusal as QuorumError).cause).toBeInstanceOf(SyntaxError);
  });

  it("answers 400 with the refusal's code and message only, never its cause", async () => {
    const response = await handle(async () => {
      await readBody(postOf('{"title": '), anyBody);
      return new Response(null, { status: 204 });
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "invalid", message: "the body is not valid JSON" });
  });
});
