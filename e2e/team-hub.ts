// A Quorum whose team thinks through the stand-in model server, signed in at desktop size: the setting of
// every spec that flies a fixture repository from the browser. Both processes stop, also when the body fails.
import type { Page } from "@playwright/test";
import { type ModelServer, type Playbook, startModelServer } from "../test/fixtures/model-server";
import { expect } from "./fixtures";
import { newHome, type QuorumServer, standInModel, startQuorum, stopQuorum } from "./server";

export async function withTeamHub(page: Page, playbook: Playbook, body: (server: QuorumServer, model: ModelServer) => Promise<void>): Promise<void> {
  const model = await startModelServer();
  let server: QuorumServer | undefined;
  try {
    await model.setPlaybook(playbook);
    server = await startQuorum(newHome(), undefined, { ...standInModel(model.url), QUORUM_FLIGHT: "off" });
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(server.signInUrl);
    await expect(page.getByTestId("live-status")).toHaveAttribute("data-status", "live");
    await body(server, model);
  } finally {
    if (server) await stopQuorum(server);
    await model.stop();
  }
}
