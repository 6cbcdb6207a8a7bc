// A forge for the browser specs: git's own http-backend behind a token serving `team/slug.git` (the two-failures
// repository), a stand-in speaking GitHub's REST wire, and the human's steps that connect it in Settings → Forges.
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import { type GitHttpServer, startGitHttpServer } from "../test/fixtures/git-http-server";
import { type GitHubStandIn, startGitHubStandIn } from "../test/fixtures/github-stand-in";
import { twoFailuresRepo } from "../test/fixtures/repos";
import { expect } from "./fixtures";

export interface Forge {
  token: string;
  git: GitHttpServer;
  github: GitHubStandIn;
  fixture: ReturnType<typeof twoFailuresRepo>;
  /** The bare repository on the forge, and its https URL. */
  bare: string;
  url: string;
}

/** Runs `body` with a forge serving the two-failures repository, stopping both processes after, also on failure. */
export async function withForge(name: string, body: (forge: Forge) => Promise<void>): Promise<void> {
  const token = `e2e-${name}-${Date.now().toString(36)}-token`;
  const git = await startGitHttpServer(token);
  try {
    const github = await startGitHubStandIn(token);
    try {
      const fixture = twoFailuresRepo();
      const bare = join(git.root, "team", "slug.git");
      execFileSync("git", ["clone", "--quiet", "--bare", fixture.repo, bare]);
      await body({ token, git, github, fixture, bare, url: `${git.origin}/team/slug.git` });
      expect(await github.violations()).toEqual([]);
    } finally {
      await github.stop();
    }
  } finally {
    await git.close();
  }
}

/** Settings → Forges: the host, its API, the token, as a human connects them; the forge's entry on the page. */
export async function connectForge(page: Page, baseURL: string, forge: Forge) {
  await page.goto(`${baseURL}/settings`);
  const forges = page.getByRole("region", { name: "Forges" });
  await forges.getByLabel("Host").fill(forge.git.host);
  await forges.getByLabel("API URL").fill(forge.github.apiUrl);
  await forges.getByLabel("Token").fill(forge.token);
  await forges.getByRole("button", { name: "Add forge" }).click();
  await expect(forges.getByText(forge.git.host, { exact: true })).toBeVisible();
  return page.getByTestId("forge").filter({ hasText: forge.git.host });
}
