// Zod schemas as the JSON Schemas MCP lists: path params merged into the body's, trimmed of noise.
import { z } from "zod";

export type JsonSchema = Record<string, unknown>;

const SAFE = Number.MAX_SAFE_INTEGER;

function refersToRoot(node: unknown): boolean {
  if (!node || typeof node !== "object") return false;
  if ((node as JsonSchema).$ref === "#") return true;
  return Object.values(node as JsonSchema).some(refersToRoot);
}

/** Drops what costs tokens and says nothing: `$schema`, ±2^53 bounds, regexes behind a format, `additionalProperties: {}`; any JSON value becomes `{}`. */
function trim(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(trim);
  if (!node || typeof node !== "object") return node;
  const schema = node as JsonSchema;
  // z.json() is a recursive anyOf over "#", which would point at the tool's own root once nested.
  if (Array.isArray(schema.anyOf) && schema.anyOf.some(refersToRoot)) return {};
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "$schema") continue;
    // `format: uuid` (or date-time) says it; zod's regex for the same thing costs ~50 tokens a field.
    if (key === "pattern" && typeof schema.format === "string") continue;
    if ((key === "maximum" && value === SAFE) || (key === "minimum" && value === -SAFE)) continue;
    if (key === "additionalProperties" && value && typeof value === "object" && Object.keys(value).length === 0) continue;
    out[key] = trim(value);
  }
  return out;
}

export function toJson(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  return trim(z.toJSONSchema(schema, { io, target: "draft-7", unrepresentable: "any" })) as JsonSchema;
}

function withParams(branch: JsonSchema, params: JsonSchema): JsonSchema {
  if (branch.type !== "object") return branch;
  const required = [...((params.required as string[]) ?? []), ...((branch.required as string[]) ?? [])];
  return {
    ...branch,
    properties: { ...(params.properties as JsonSchema), ...(branch.properties as JsonSchema) },
    ...(required.length > 0 ? { required } : {}),
  };
}

/**
 * A tool's input: the REST body (or query) schema with the path params as extra properties. A union
 * body (review's accept | reject) gets the params in each branch, under an object root.
 */
export function toolInputSchema(params: z.ZodObject | undefined, input: z.ZodType | undefined): JsonSchema {
  const p = params ? toJson(params, "input") : { type: "object", properties: {} };
  if (!input) return { ...withParams({ type: "object", properties: {}, additionalProperties: false }, p) };
  const body = toJson(input, "input");
  for (const key of ["oneOf", "anyOf"] as const) {
    if (Array.isArray(body[key])) return { type: "object", [key]: (body[key] as JsonSchema[]).map((b) => withParams(b, p)) };
  }
  return withParams(body, p);
}

const ERROR_BRANCH: JsonSchema = {
  type: "object",
  properties: { error: { type: "string" }, message: { type: "string" } },
  required: ["error", "message"],
};

/** What a tool answers: its result, or (with isError) a refusal shaped exactly like the REST error body. */
export function toolOutputSchema(output: z.ZodType): JsonSchema {
  return { type: "object", anyOf: [toJson(output, "output"), ERROR_BRANCH] };
}
