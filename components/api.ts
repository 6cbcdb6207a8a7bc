// The browser's only way to the server: JSON over fetch, errors carrying the server's words.
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: { error?: string; message?: string; [key: string]: unknown },
  ) {
    super(body.message ?? `request failed with status ${status}`);
  }
}

/**
 * Whether a failed read is worth asking again: a 4xx is the server's answer (a 404 stays a 404), said in place
 * at once rather than after three backed-off retries; a failed connection or a 5xx gets three more tries.
 */
export function retryable(failures: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failures < 3;
}

async function parse<T>(response: Response): Promise<T> {
  if (response.status === 204) return undefined as T;
  const body = await response.json().catch(() => ({ message: `the server answered ${response.status}` }));
  if (!response.ok) throw new ApiError(response.status, body);
  return body as T;
}

export async function apiGet<T>(path: string): Promise<T> {
  return parse<T>(await fetch(path, { headers: { Accept: "application/json" } }));
}

/** A bodiless DELETE: a form cannot send one, so a same-origin cookie suffices (no JSON content type). */
export async function apiDelete<T = void>(path: string): Promise<T> {
  return parse<T>(await fetch(path, { method: "DELETE", headers: { Accept: "application/json" } }));
}

export async function apiPost<T>(path: string, body: unknown): Promise<T> {
  return send<T>("POST", path, body);
}

export async function apiPatch<T>(path: string, body: unknown): Promise<T> {
  return send<T>("PATCH", path, body);
}

export async function apiPut<T>(path: string, body: unknown): Promise<T> {
  return send<T>("PUT", path, body);
}

async function send<T>(method: "POST" | "PUT" | "PATCH", path: string, body: unknown): Promise<T> {
  return parse<T>(await fetch(path, { method, headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) }));
}

/**
 * A POST whose answer streams JSON Lines (long work saying how far it has got): each line is handed to `onLine`
 * as it arrives. A refusal before the stream starts is thrown as an ApiError, like any other call's.
 */
export async function apiPostLines(path: string, body: unknown, onLine: (line: unknown) => void, signal?: AbortSignal): Promise<void> {
  const response = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body), signal });
  if (!response.ok || !response.body) {
    await parse(response);
    return;
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += value;
    for (let nl = buffer.indexOf("\n"); nl >= 0; nl = buffer.indexOf("\n")) {
      const line = buffer.slice(0, nl).trim();
      buffer = buffer.slice(nl + 1);
      if (line) onLine(JSON.parse(line));
    }
  }
  if (buffer.trim()) onLine(JSON.parse(buffer));
}
