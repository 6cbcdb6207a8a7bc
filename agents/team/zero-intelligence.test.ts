// The zero-intelligence 2×2 (`quorum experiment zero-intelligence`): whatever the roles' wits, budgets hold and
// nothing integrates without an ACCEPT; what each cell delivers is the roles' doing.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { getConnection, getDb } from "../../db/client";
import { contextOf } from "../../domain/context";
import { systemClock } from "../../domain/clock";
import { loadBill } from "../../domain/bill/bill";
import { type Cell, flyCell, ZI_CODERS, ZI_REVIEWERS, type CoderKind, type ReviewerKind, zeroIntelligenceTable } from "../experiments/zero-intelligence";
import { ALLOWANCES, ensureTeam, membersOf } from "./team";

it("holds budgets and the ACCEPT gate in every cell of competent/stub coder × rule/rubber-stamp reviewer", { timeout: 600_000 }, async () => {
  const team = await ensureTeam(getDb(), systemClock);
  const scratch = mkdtempSync(join(tmpdir(), "quorum-zi-"));
  const cells: Cell[] = [];
  try {
    for (const coder of Object.keys(ZI_CODERS) as CoderKind[]) {
      for (const reviewer of Object.keys(ZI_REVIEWERS) as ReviewerKind[]) cells.push(await flyCell(contextOf(getConnection()), scratch, coder, reviewer));
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const table = Object.fromEntries(cells.map(({ coder, reviewer, spent: _spent, ...rest }) => [`${coder} × ${reviewer}`, rest]));
  expect(table).toEqual({
    // The stub tester verifies nothing, so no flight is ever called green — but the flight's branch is right where the work was.
    "competent × rule": { outcome: "red", accepted: true, rejections: 0, integrated: true, unaccepted: 0, suite: "green" },
    "competent × rubber-stamp": { outcome: "red", accepted: true, rejections: 0, integrated: true, unaccepted: 0, suite: "green" },
    // The rule reviewer rejects empty work until the coder gives up, and the goal goes back to its human; nothing reaches a branch.
    "stub × rule": { outcome: "red", accepted: false, rejections: 3, integrated: false, unaccepted: 0, suite: "no branch" },
    // A rubber stamp lets empty work in: integrated with an ACCEPT, and the branch stays red.
    "stub × rubber-stamp": { outcome: "red", accepted: true, rejections: 0, integrated: true, unaccepted: 0, suite: "red" },
  });
  // Every cell was billed; a stub coder with a rubber stamp is the cheapest way to ship nothing.
  for (const cell of cells) expect(cell.spent).toBeGreaterThan(0);
  const spend = Object.fromEntries(cells.map((c) => [`${c.coder} × ${c.reviewer}`, c.spent]));
  expect(spend["stub × rubber-stamp"]).toBeLessThan(spend["competent × rubber-stamp"]);

  const bill = await loadBill(getDb());
  for (const member of membersOf(team)) {
    const spent = bill.agents.find((a) => a.agentId === member.principal.id)?.tokens ?? 0;
    expect(spent).toBeLessThanOrEqual(ALLOWANCES[member.role]);
  }
  // The experiment's table says what the cells say, row for row.
  const report = zeroIntelligenceTable(cells);
  expect(report.rows.map((r) => [r[0], r[1], r[4], r[6], r[8]])).toEqual([
    ["competent", "rule", "yes", "yes", "yes"],
    ["competent", "rubber-stamp", "yes", "yes", "yes"],
    ["stub", "rule", "no", "no", "no branch (nothing integrated)"],
    ["stub", "rubber-stamp", "yes", "yes", "no"],
  ]);
});
