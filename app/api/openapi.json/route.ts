// GET /api/openapi.json: the API's OpenAPI 3.1 document, built from the routes' own zod schemas (contract/). Public.
import { openApiDocument } from "@/contract/document";
import { handle } from "../_lib/http";

export const dynamic = "force-dynamic";

export function GET() {
  return handle(async () => Response.json(openApiDocument(), { headers: { "Cache-Control": "no-cache" } }));
}
