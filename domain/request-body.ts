// A request's body read with a cap, for every surface that reads one (REST's routes, A2A's JSON-RPC).
import { fail } from "./errors";
import { MAX_BODY_BYTES } from "./request-shape";

/**
 * The body as text, read chunk by chunk: past `limit` bytes the read stops and the request is refused,
 * so a 100 MB upload costs the server at most `limit` bytes of memory. A declared Content-Length over
 * the limit is refused before a byte is read.
 */
export async function readCapped(req: Request, limit = MAX_BODY_BYTES): Promise<string> {
  if (Number(req.headers.get("content-length")) > limit) throw fail.tooLarge("request", limit);
  if (!req.body) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > limit) {
      // Stop pulling: the rest of the upload is never buffered (the server drains or closes the socket).
      void reader.cancel().catch(() => {});
      throw fail.tooLarge("request", limit);
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}
