// What the hosts' processes share: their configuration, the JSON lines they print, and a typed client
// that spreads calls over the app instances (a load balancer without sticky sessions, as a client sees one).
import { type QuorumClient, quorumClient } from "../../client";

export interface AgentHostConfig {
  host: string;
  mode: "work" | "bench";
  /** The app instances' base URLs; each agent starts at a different one and moves on when one fails. */
  instances: string[];
  agents: { name: string; key: string }[];
  /** Agents to send direct messages to (any host's). */
  peers: string[];
  room: string;
  /** Output items each task gets, one write each. */
  items: number;
  /** Pause after each output item (keeps tasks in progress when the cut comes). */
  itemPaceMs: number;
  leaseSeconds: number;
  /** A write answered this long after the holder's last answered write counts as late (its lease must be gone). */
  lateMs: number;
  requestTimeoutMs: number;
  benchSeconds: number;
}

/** One line of an agent host's stdout. */
export type AgentLine =
  | { t: "post"; id: string; seq: number; room: string; body: string; sender: string }
  | { t: "postUnknown"; body: string; sender: string }
  | { t: "claim"; agent: string; number: number; fence: number }
  /** An output item accepted: the runner times the cut on it, so the cut catches the agent mid-task. */
  | { t: "wrote"; agent: string; number: number; k: number }
  | { t: "stale"; agent: string; number: number; fence: number; op: string; late: boolean; silentMs: number }
  | { t: "lateAccepted"; agent: string; number: number; fence: number; op: string; silentMs: number }
  | { t: "submitted"; agent: string; number: number; fence: number }
  | { t: "unexpected"; agent: string; what: string }
  | { t: "bench"; posts: number; claims: number; refused: number; seconds: number; claimSeconds: number; cpuSeconds: number }
  | { t: "stopped" };

/** The status and body of one typed call; a thrown call (no answer in time, connection refused) is `null`. */
export type Answer = { status: number; body: Body } | null;
// biome-ignore lint/suspicious/noExplicitAny: parsed JSON of many endpoints, read field by field by the checks
export type Body = any;

export async function answer(pending: Promise<{ response: Response; data?: unknown; error?: unknown }>): Promise<Answer> {
  try {
    const { response, data, error } = await pending;
    return { status: response.status, body: data ?? error };
  } catch {
    return null;
  }
}

/**
 * A typed client whose requests go to one instance until it fails (no answer within `timeoutMs`, a refused
 * connection, a 5xx), then to the next. A failed request is not retried here: whether it took effect is
 * for the caller to find out (a post, an output item), never guessed.
 */
export function spreadClient(instances: string[], start: number, auth: { key?: string; cookie?: string }, timeoutMs: number): QuorumClient {
  let current = start % instances.length;
  const moveOn = () => {
    current = (current + 1) % instances.length;
  };
  return quorumClient({
    baseUrl: instances[current],
    ...auth,
    fetch: async (request) => {
      const url = new URL(request.url);
      const target = `${instances[current]}${url.pathname}${url.search}`;
      const body = request.method === "GET" || request.method === "HEAD" ? undefined : await request.text();
      // The whole exchange, body included, under one timer of our own: with AbortSignal.timeout alone, an
      // agent host sometimes waited forever on a request with no socket left open (Node 20's fetch).
      const abort = new AbortController();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const expired = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          const error = new Error(`no answer from ${instances[current]} within ${timeoutMs} ms`);
          abort.abort(error);
          reject(error);
        }, timeoutMs);
      });
      const exchange = (async () => {
        const response = await fetch(target, { method: request.method, headers: request.headers, body, signal: abort.signal });
        const bytes = await response.arrayBuffer();
        const empty = bytes.byteLength === 0 || [204, 205, 304].includes(response.status);
        return new Response(empty ? null : bytes, { status: response.status, statusText: response.statusText, headers: response.headers });
      })();
      try {
        const response = await Promise.race([exchange, expired]);
        if (response.status >= 500) moveOn();
        return response;
      } catch (error) {
        exchange.catch(() => {});
        moveOn();
        throw error;
      } finally {
        clearTimeout(timer);
      }
    },
  });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function emitLine(line: object): void {
  process.stdout.write(`${JSON.stringify(line)}\n`);
}
