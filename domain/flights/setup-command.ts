// The command that installs a repository's dependencies before a flight's team works on it (DESIGN §20,
// "Setup"): the one its human gave, else the repository's own `.quorum/setup`, else one read off its
// lockfiles. Decided at launch from the commit the flight starts from, so the New flight dialog shows it.
import type { CommitFiles } from "./repository";

export type SetupSource = "given" | "file" | "detected";

export interface SetupChoice {
  command: string;
  source: SetupSource;
}

/** A repository's own setup script, run with sh from its top folder. */
export const SETUP_FILE = ".quorum/setup";

/** Files whose content decides what a setup installs: the environment is built again only when one changes. */
export const DEPENDENCY_FILES = [
  SETUP_FILE,
  "package.json",
  "package-lock.json",
  "npm-shrinkwrap.json",
  "pnpm-lock.yaml",
  "yarn.lock",
  ".yarnrc.yml",
  ".npmrc",
  "requirements.txt",
  "requirements-dev.txt",
  "requirements-test.txt",
  "dev-requirements.txt",
  "test-requirements.txt",
  "pyproject.toml",
  "setup.py",
  "setup.cfg",
  "poetry.lock",
  "uv.lock",
  "go.mod",
  "go.sum",
  "Cargo.toml",
  "Cargo.lock",
  "Gemfile",
  "Gemfile.lock",
];

const REQUIREMENTS = ["requirements.txt", "requirements-dev.txt", "requirements-test.txt", "dev-requirements.txt", "test-requirements.txt"];

/** The extra of pyproject.toml's optional dependencies that holds what its tests need, if it names one. */
function testExtra(pyproject: string): string | null {
  const section = /^\[project\.optional-dependencies\]\s*$([\s\S]*?)(?=^\[|(?![\s\S]))/m.exec(pyproject)?.[1] ?? "";
  return ["test", "tests", "testing", "dev"].find((name) => new RegExp(`^${name}\\s*=`, "m").test(section)) ?? null;
}

/** Whether a Python project declares dependencies of its own (a project without any needs no setup). */
function declaresDependencies(pyproject: string | null, setupPy: string | null): boolean {
  return /^dependencies\s*=\s*\[\s*["']/m.test(pyproject ?? "") || /install_requires\s*=\s*\[\s*["']/.test(setupPy ?? "");
}

/**
 * A Python project's setup: a virtualenv in `.venv` with its requirements, and the project itself, editable
 * (with its test extra), when it declares anything to install.
 */
async function pythonSetup(files: CommitFiles): Promise<string | null> {
  const requirements = REQUIREMENTS.filter((name) => files.names.has(name));
  const pyproject = await files.read("pyproject.toml");
  const extra = pyproject ? testExtra(pyproject) : null;
  const installable = (pyproject !== null || files.names.has("setup.py")) && (extra !== null || declaresDependencies(pyproject, await files.read("setup.py")));
  if (requirements.length === 0 && !installable) return null;
  const targets = [...requirements.map((name) => `-r ${name}`), ...(installable ? [extra ? `-e '.[${extra}]'` : "-e ."] : [])];
  return `python3 -m venv .venv && .venv/bin/pip install ${targets.join(" ")}`;
}

/** The setup a repository's files call for (first match wins), or null when it has nothing to install. */
export async function detectSetupCommand(files: CommitFiles): Promise<string | null> {
  const has = (name: string) => files.names.has(name);
  if (has("package-lock.json") || has("npm-shrinkwrap.json")) return "npm ci";
  if (has("pnpm-lock.yaml")) return "pnpm install --frozen-lockfile";
  if (has("yarn.lock")) return "yarn install --frozen-lockfile";
  if (has("uv.lock")) return "uv sync --frozen";
  if (has("poetry.lock")) return "poetry install --no-interaction";
  if (has("package.json")) {
    const pkg = await files.read("package.json");
    const declared = /"(dev)?[dD]ependencies"\s*:\s*\{\s*"/.test(pkg ?? "");
    if (declared) return "npm install";
  }
  const python = await pythonSetup(files);
  if (python) return python;
  if (has("go.mod")) return "go mod download";
  if (has("Cargo.toml")) return "cargo fetch";
  if (has("Gemfile")) return "bundle install";
  return null;
}

/** The setup a flight runs: `given` by its human (an empty string says: none), else the repository's file, else detected. */
export async function chooseSetup(files: CommitFiles, given: string | undefined): Promise<SetupChoice | null> {
  if (given !== undefined) return given.trim() === "" ? null : { command: given.trim(), source: "given" };
  if (files.names.has(SETUP_FILE)) return { command: `sh ${SETUP_FILE}`, source: "file" };
  const detected = await detectSetupCommand(files);
  return detected ? { command: detected, source: "detected" } : null;
}
