// The package registries a flight's setup may reach (through ./registry-proxy.ts), read from this machine's
// own package managers' configuration as the hub's user has it: npm's registry, pip's indexes, Go's proxy;
// and their defaults for Cargo and RubyGems where those are installed. What a repository says (its .npmrc,
// its pip.conf) is never read here: the setup's environment names the hub's registries, which win over it.
// QUORUM_SETUP_HOSTS adds hosts a human trusts (a company mirror npm is not told about).
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { inheritedEnvironment, setupExtraHosts } from "../../domain/config";

export interface RegistrySettings {
  /** Each allowed host (lower case) and the ports it may be reached on. */
  hosts: Map<string, Set<number>>;
  /** What the setup's environment says to its package managers: the hub's registries, over the repository's. */
  env: Record<string, string>;
}

const WEB_PORTS = [443, 80];

/** Hosts each package manager uses when nothing is configured (where the manager is installed). */
const DEFAULT_HOSTS: Record<string, string[]> = {
  cargo: ["index.crates.io", "static.crates.io", "crates.io"],
  gem: ["rubygems.org", "index.rubygems.org"],
  yarn: ["registry.yarnpkg.com"],
};

/** pip's settings passed on (the config key's last part → its environment variable). */
const PIP_SETTINGS: Record<string, string> = {
  "index-url": "PIP_INDEX_URL",
  "extra-index-url": "PIP_EXTRA_INDEX_URL",
  "find-links": "PIP_FIND_LINKS",
  cert: "PIP_CERT",
  constraint: "PIP_CONSTRAINT",
  "trusted-host": "PIP_TRUSTED_HOST",
  "default-timeout": "PIP_DEFAULT_TIMEOUT",
  timeout: "PIP_DEFAULT_TIMEOUT",
};

function onPath(program: string): boolean {
  return (inheritedEnvironment().PATH ?? "").split(":").some((dir) => dir !== "" && existsSync(join(dir, program)));
}

/** A program's answer, run from / (so no project's configuration is read), or null when it cannot say. */
function ask(program: string, args: string[]): string | null {
  if (!onPath(program)) return null;
  try {
    return execFileSync(program, args, { cwd: "/", encoding: "utf8", timeout: 15_000, stdio: ["ignore", "pipe", "ignore"] });
  } catch {
    return null;
  }
}

function allow(hosts: Map<string, Set<number>>, url: string): void {
  if (!URL.canParse(url)) return;
  const { protocol, hostname, port } = new URL(url);
  if (protocol !== "https:" && protocol !== "http:") return;
  const host = hostname.toLowerCase().replace(/^\[(.*)\]$/, "$1");
  const ports = hosts.get(host) ?? new Set(WEB_PORTS);
  if (port) ports.add(Number(port));
  hosts.set(host, ports);
}

function npmSettings(hosts: Map<string, Set<number>>, env: Record<string, string>): void {
  const registry = ask("npm", ["config", "get", "registry"])?.trim() || "https://registry.npmjs.org/";
  allow(hosts, registry);
  env.npm_config_registry = registry;
}

function pipSettings(hosts: Map<string, Set<number>>, env: Record<string, string>): void {
  const listed = ask("python3", ["-m", "pip", "config", "list"]) ?? "";
  let indexed = false;
  // pip's own order: its environment variables (`:env:`) win over its files.
  const lines = listed.split("\n").map((line) => line.trim());
  const ordered = [...lines.filter((line) => !line.startsWith(":env:")), ...lines.filter((line) => line.startsWith(":env:"))];
  env.PIP_DISABLE_PIP_VERSION_CHECK = "1";
  for (const line of ordered) {
    const match = /^[^.]*\.([a-z-]+)='(.*)'$/.exec(line);
    const variable = match && PIP_SETTINGS[match[1]];
    if (!match || !variable) continue;
    env[variable] = match[2];
    if (variable === "PIP_INDEX_URL") indexed = true;
    if (variable === "PIP_INDEX_URL" || variable === "PIP_EXTRA_INDEX_URL") for (const url of match[2].split(/\s+/)) allow(hosts, url);
  }
  if (!indexed) {
    allow(hosts, "https://pypi.org/simple/");
    allow(hosts, "https://files.pythonhosted.org/");
  }
}

function goSettings(hosts: Map<string, Set<number>>, env: Record<string, string>): void {
  const said = ask("go", ["env", "GOPROXY", "GOSUMDB"]);
  if (said === null) return;
  const [proxy = "", sumdb = ""] = said.split("\n").map((line) => line.trim());
  for (const url of proxy.split(/[,|]/)) allow(hosts, url);
  const sumHost = sumdb.split(/\s+/)[0];
  if (sumHost && sumHost !== "off") allow(hosts, sumHost.includes("://") ? sumHost : `https://${sumHost}`);
  if (proxy) env.GOPROXY = proxy;
  if (sumdb) env.GOSUMDB = sumdb;
}

function extraHosts(hosts: Map<string, Set<number>>): void {
  for (const entry of setupExtraHosts()) {
    const match = /^([a-z0-9.-]+|\[[0-9a-f:]+\])(?::(\d{1,5}))?$/.exec(entry);
    if (!match) continue;
    allow(hosts, `https://${match[1]}${match[2] ? `:${match[2]}` : ""}/`);
  }
}

let settings: RegistrySettings | undefined;

/** The registries this machine's package managers use (asked once per process: configuration does not move under a hub). */
export function registrySettings(): RegistrySettings {
  if (settings) return settings;
  const hosts = new Map<string, Set<number>>();
  const env: Record<string, string> = {};
  npmSettings(hosts, env);
  pipSettings(hosts, env);
  goSettings(hosts, env);
  for (const [program, names] of Object.entries(DEFAULT_HOSTS)) if (onPath(program)) for (const name of names) allow(hosts, `https://${name}/`);
  extraHosts(hosts);
  settings = { hosts, env };
  return settings;
}
