// Issue 34: no principal passes for another. Over the real route: names that read as Quorum or an
// operator and the role `human` are 400 for agents; a name sharing another's skeleton (case, 0/o,
// 1/l, separators) is 409 naming the one it reads as, also when both are registered at once.
import { describe, expect, it } from "vitest";
const registerRoute = apiHandler("POST", "/api/agents");
import { getDb } from "../../db/client";
import { manualClock } from "../clock";
import { call, makeHuman, uniqueName } from "../../test/helpers";
import { ensureHuman } from "./create-principal";
import { nameSkeleton } from "./look-alikes";
import { apiHandler } from "../../test/api";

const register = (cookie: string, name: string, role = "coder") => call(registerRoute, "/api/agents", { cookie, body: { name, role } });

describe("look-alike principals", () => {
  it("refuses agents named like Quorum, the system or root, in any case or spelling, and the role human", async () => {
    const { cookie } = await makeHuman();
    for (const name of ["Quorum", "QUORUM", "quorum.", "Qu0rum", "ROOT", "r00t", "system", "SYS-TEM", "admin", "Human", "operator"]) {
      const refused = await register(cookie, name);
      expect(refused.status, name).toBe(400);
      expect(JSON.stringify(refused.body.issues), name).toContain("speaks for Quorum");
    }
    for (const role of ["human", " Human ", "system"]) {
      const refused = await register(cookie, uniqueName("bot"), role);
      expect(refused.status, role).toBe(400);
      expect(JSON.stringify(refused.body.issues), role).toContain("role may not be");
    }
  });

  it("refuses a name that reads as a taken one, 409 naming it; distinct names pass", async () => {
    const { cookie } = await makeHuman();
    const base = uniqueName("coder").replace(/[0-9]/g, "x");
    expect((await register(cookie, `${base}-1`)).status).toBe(201);
    for (const lookAlike of [`${base.toUpperCase()}-1`, `${base}_l`, `${base}.I`, `${base}1`]) {
      const refused = await register(cookie, lookAlike);
      expect(refused.status, lookAlike).toBe(409);
      expect(refused.body).toMatchObject({ error: "name_taken", lookAlike: `${base}-1` });
    }
    expect((await register(cookie, `${base}-2`)).status).toBe(201);
  });

  it("lets one of six look-alikes registered at once through", async () => {
    const { cookie } = await makeHuman();
    const base = uniqueName("race").replace(/[0-9]/g, "x");
    const names = [`${base}o`, `${base}0`, `${base.toUpperCase()}O`, `${base}-o`, `${base}.0`, `${base}_O`];
    expect(new Set(names.map(nameSkeleton)).size).toBe(1);
    const answers = await Promise.all(names.map((name) => register(cookie, name)));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
  });

  it("keeps a human from taking Quorum's own name in another case", async () => {
    await expect(ensureHuman(getDb(), "Quorum", manualClock())).rejects.toMatchObject({ code: "name_taken" });
  });
  it("gives two hosts that start at once the same human, neither refused for a taken name", async () => {
    const name = uniqueName("operator");
    const clock = manualClock(new Date());
    const both = await Promise.all(Array.from({ length: 4 }, () => ensureHuman(getDb(), name, clock)));
    expect(new Set(both.map((h) => h.id)).size).toBe(1);
  });
});
