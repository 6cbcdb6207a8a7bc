// Quorum's refusals in A2A's words: a JSON-RPC error with the code A2A gives the case (a bad parameter, a task
// not found, a task past cancelling), or, where A2A has none (401, 403, 409, 413, 429), an application code
// outside JSON-RPC's reserved range: -31000 less REST's status, so -31403 is REST's 403. Every refusal carries a
// google.rpc.ErrorInfo in the `quorum` domain holding REST's body (`error`, `message` and each extra field, as
// strings), so a client switches on the same codes a REST client does.
import { A2AError, RequestMalformedError, TaskNotFoundError, toJsonRpcError } from "@a2a-js/sdk/errors";
import { QuorumError } from "../../domain/errors";

export interface JsonRpcError {
  code: number;
  message: string;
  data?: Record<string, unknown>[];
}

const INTERNAL: JsonRpcError = { code: -32603, message: "something went wrong on our side; the request changed nothing" };

/** REST's body as an ErrorInfo: its metadata is a map of strings, so other values travel as JSON. */
function quorumInfo(error: QuorumError): Record<string, unknown> {
  const body = { ...error.toBody(), status: error.status };
  const metadata = Object.fromEntries(Object.entries(body).map(([key, value]) => [key, typeof value === "string" ? value : JSON.stringify(value)]));
  return { "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: error.code.toUpperCase(), domain: "quorum", metadata };
}

/** The A2A error a refusal is, where A2A names one; `as` is the caller's reading of it (a refused cancel: not cancelable). */
function a2aErrorOf(error: QuorumError, as?: A2AError): A2AError | null {
  if (as) return as;
  if (error.kind === "invalid") return new RequestMalformedError(error.message);
  if (error.kind === "not_found") return new TaskNotFoundError(error.message);
  return null;
}

/** A refusal (or any error) as the `error` of a JSON-RPC response; anything that is neither says only that it was ours. */
export function jsonRpcErrorOf(error: unknown, as?: A2AError): JsonRpcError {
  if (error instanceof QuorumError) {
    const a2a = a2aErrorOf(error, as);
    if (!a2a) return { code: -31000 - error.status, message: error.message, data: [quorumInfo(error)] };
    return { code: toJsonRpcError(a2a).code, message: error.message, data: [a2a.toErrorInfo(), quorumInfo(error)] };
  }
  if (error instanceof A2AError) return toJsonRpcError(error);
  return INTERNAL;
}

/** A refusal made before any JSON-RPC ran (no key, another site's page, a body too large) as a whole response. */
export function envelopeOf(error: QuorumError, id: string | number | null = null) {
  return { jsonrpc: "2.0" as const, id, error: jsonRpcErrorOf(error) };
}
