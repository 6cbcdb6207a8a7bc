// Zod schemas as the JSON Schemas MCP lists: path params merged into the body's, trimmed of noise.
import { z } from "zod";

export type JsonSchema = Record<string, unknown>;

const SAFE = Number.MAX_SAFE_INTEGER;

function refersToRoot(node: unknown): boolean {
  if (!node || typeof node !== "object") return false;
  if ((node as JsonSchema).$ref === "#") return true;
  return Object.values(node as JsonSchema).some(refersToRoot);
}

/**
 * Any JSON value, said outright: an empty schema (`{}`) is what strict portability checks (the MCP
 * Inspector's `--strict`) and some clients' schema converters refuse.
 */
const ANY_JSON: JsonSchema = {
  anyOf: [{ type: "string" }, { type: "number" }, { type: "boolean" }, { type: "object" }, { type: "array" }, { type: "null" }],
  description: "any JSON value",
};

const isEmpty = (value: unknown) => value === true || (!!value && typeof value === "object" && !Array.isArray(value) && Object.keys(value).length === 0);

/** `type: ["string", "null"]` becomes `anyOf: [{type: "string", …}, {type: "null"}]`: a nullable field as clients expect it. */
function nullableAsAnyOf(schema: JsonSchema): JsonSchema {
  const types = schema.type;
  if (!Array.isArray(types)) return schema;
  const { type: _, description, ...rest } = schema;
  const branches = types.map((t) => (t === "null" ? { type: "null" } : { type: t, ...rest }));
  return { anyOf: branches, ...(description ? { description } : {}) };
}

/** A schema in a place where a value is expected (a property, an array's items…): never empty. */
function value(node: unknown): unknown {
  return isEmpty(node) ? ANY_JSON : trim(node);
}

/**
 * Drops what costs tokens and says nothing: `$schema`, ±2^53 bounds, regexes behind a format, `additionalProperties: {}`;
 * nullable types become anyOf with null, and any JSON value is spelled out.
 */
function trim(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(trim);
  if (!node || typeof node !== "object") return node;
  const schema = node as JsonSchema;
  // z.json() is a recursive anyOf over "#", which would point at the tool's own root once nested.
  if (Array.isArray(schema.anyOf) && schema.anyOf.some(refersToRoot)) return ANY_JSON;
  const out: JsonSchema = {};
  for (const [key, child] of Object.entries(schema)) {
    if (key === "$schema") continue;
    // `format: uuid` (or date-time) says it; zod's regex for the same thing costs ~50 tokens a field.
    if (key === "pattern" && typeof schema.format === "string") continue;
    if ((key === "maximum" && child === SAFE) || (key === "minimum" && child === -SAFE)) continue;
    if (key === "additionalProperties" && isEmpty(child)) continue;
    if (key === "properties" && child && typeof child === "object") {
      out[key] = Object.fromEntries(Object.entries(child as JsonSchema).map(([name, property]) => [name, value(property)]));
    } else if (key === "items" || key === "additionalProperties") {
      out[key] = value(child);
    } else if ((key === "anyOf" || key === "oneOf" || key === "allOf") && Array.isArray(child)) {
      out[key] = child.map(value);
    } else {
      out[key] = trim(child);
    }
  }
  return nullableAsAnyOf(out);
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
