// Checks HTTP requests and responses against an OpenAPI 3.0 description (GitHub's, for the GitHub stand-in):
// a matcher over the description's path templates finds the operation, ajv checks path and query parameters,
// the JSON body and the response about to be sent. The document is registered with ajv once, so a `$ref` is
// resolved by ajv inside it rather than by dereferencing (GitHub's dereferenced description is 73 MB).
import { readFileSync } from "node:fs";
import Ajv, { type ErrorObject, type ValidateFunction } from "ajv";

type Json = Record<string, unknown>;
type Parameter = { name: string; in: string; required?: boolean; schema?: Json; "x-multi-segment"?: boolean };
type Operation = {
  operationId: string;
  parameters?: (Parameter | { $ref: string })[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Json }> };
  responses: Record<string, Json>;
  externalDocs?: { url: string };
};

export interface Matched {
  operationId: string;
  /** The operation's documentation page, which GitHub puts in an error's `documentation_url`. */
  docs: string;
  /** Path parameters, coerced to the types the description gives them. */
  params: Record<string, unknown>;
  query: Record<string, unknown>;
}

export type Checked = { matched: Matched; errors: ErrorObject[] } | { matched: null; errors: [] };

const METHODS = ["get", "put", "post", "patch", "delete", "head", "options"] as const;
const DOCUMENT = "github-openapi";

/** OpenAPI 3.0's `nullable: true` is no JSON Schema keyword: a type array (and null in an enum) says the same, or `anyOf` with null where combinators or a `$ref` sit beside it. */
function convertNullable(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(convertNullable);
  if (!node || typeof node !== "object") return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) out[key] = convertNullable(value);
  if (out.nullable !== true) return out;
  delete out.nullable;
  if (["allOf", "anyOf", "oneOf", "$ref"].some((key) => key in out)) return { anyOf: [out, { type: "null" }] };
  if (out.type === undefined) return out;
  out.type = [...(Array.isArray(out.type) ? out.type : [out.type]), "null"];
  if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  return out;
}

/** An inline schema's local `$ref`s point into the registered document. */
function rebase(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rebase);
  if (!node || typeof node !== "object") return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => [key, key === "$ref" && typeof value === "string" && value.startsWith("#/") ? `${DOCUMENT}${value}` : rebase(value)]),
  );
}

/** Formats are checked loosely: the point is the shape of a body, not RFC 3339 to the letter. Shared with the stand-in's webhook schemas. */
export function looseAjv(): Ajv {
  const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false, logger: false });
  ajv.addFormat("date-time", (s: string) => /^\d{4}-\d{2}-\d{2}T/.test(s) && !Number.isNaN(Date.parse(s)));
  ajv.addFormat("date", /^\d{4}-\d{2}-\d{2}$/);
  ajv.addFormat("uri", /^[a-z][a-z0-9+.-]*:\S*$/i);
  ajv.addFormat("email", /^\S+@\S+$/);
  for (const format of ["uri-template", "repo.nwo", "binary"]) ajv.addFormat(format, true);
  for (const format of ["int32", "int64", "double", "float"]) ajv.addFormat(format, { type: "number", validate: () => true });
  return ajv;
}

interface Template {
  path: string;
  segments: string[];
  /** How many of its segments are literal: the most literal template wins (`/pulls/comments` over `/pulls/{pull_number}`). */
  literals: number;
}

export class OpenApiValidator {
  private readonly doc: { paths: Record<string, Record<string, Operation>>; components: Json };
  private readonly ajv = looseAjv();
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly templates: Template[];
  private readonly byId = new Map<string, Operation>();

  constructor(file: string) {
    // The components' examples are most of the document and no schema reads them, so they are left out.
    const { paths, components } = JSON.parse(readFileSync(file, "utf8")) as { paths: unknown; components: Json };
    const { examples: _examples, ...schemas } = components;
    this.doc = convertNullable({ paths, components: schemas }) as typeof this.doc;
    this.ajv.addSchema({ components: this.doc.components }, DOCUMENT, undefined, false);
    this.templates = Object.keys(this.doc.paths).map((path) => {
      const segments = path.split("/").slice(1);
      return { path, segments, literals: segments.filter((s) => !s.startsWith("{")).length };
    });
    this.templates.sort((a, b) => b.literals - a.literals);
    for (const item of Object.values(this.doc.paths)) for (const method of METHODS) if (item[method]) this.byId.set(item[method].operationId, item[method]);
  }

  /** Compiles the schemas of these operations now, so their first request is not the one that pays for it. */
  warm(operationIds: string[]): void {
    for (const operation of operationIds.map((id) => this.byId.get(id)).filter((op) => op !== undefined)) {
      for (const status of Object.keys(operation.responses)) this.responseSchema(operation, status);
      const body = operation.requestBody?.content?.["application/json"]?.schema;
      if (body) this.validator(`${operation.operationId} request`, body);
    }
  }

  /** Finds the operation a request is for and checks its parameters and body; `matched` is null when the description has no such operation. */
  checkRequest(method: string, pathname: string, search: URLSearchParams, body: unknown): Checked {
    const found = this.match(method.toLowerCase(), pathname);
    if (!found) return { matched: null, errors: [] };
    const { operation, raw } = found;
    const errors: ErrorObject[] = [];
    const params: Record<string, unknown> = {};
    const query: Record<string, unknown> = {};
    for (const parameter of (operation.parameters ?? []).map((p) => this.resolve<Parameter>(p))) {
      if (parameter.in !== "path" && parameter.in !== "query") continue;
      const text = parameter.in === "path" ? raw[parameter.name] : (search.get(parameter.name) ?? undefined);
      const instancePath = `/${parameter.in}/${parameter.name}`;
      if (text === undefined) {
        if (parameter.required) errors.push(missing(instancePath, parameter.name));
        continue;
      }
      const value = coerce(text, parameter.schema ?? {});
      (parameter.in === "path" ? params : query)[parameter.name] = value;
      errors.push(...this.check(`${operation.operationId} ${instancePath}`, parameter.schema ?? {}, value, instancePath));
    }
    const bodySchema = operation.requestBody?.content?.["application/json"]?.schema;
    if (body === undefined) {
      if (operation.requestBody?.required) errors.push(missing("/body", "body"));
    } else if (bodySchema) errors.push(...this.check(`${operation.operationId} request`, bodySchema, body, "/body"));
    return { matched: { operationId: operation.operationId, docs: operation.externalDocs?.url ?? "https://docs.github.com/rest", params, query }, errors };
  }

  /**
   * Checks a response about to be sent. GitHub's description leaves 401 (and a 404 on a write) out of most operations
   * though every one can answer them, so an error status it does not list is checked against its `basic-error`.
   */
  checkResponse(operationId: string, status: number, body: unknown): ErrorObject[] {
    const operation = this.byId.get(operationId);
    if (!operation) return [missing("", `operation ${operationId}`)];
    const documented = String(status) in operation.responses || "default" in operation.responses;
    if (!documented && status < 400) return [{ instancePath: "", schemaPath: "#/responses", keyword: "status", params: { status }, message: `status ${status} is not documented` }];
    const schema = documented ? this.responseSchema(operation, String(status) in operation.responses ? String(status) : "default") : { $ref: "#/components/schemas/basic-error" };
    return schema ? this.check(`${operationId} ${documented ? status : "error"}`, schema, body, "") : [];
  }

  private responseSchema(operation: Operation, status: string): Json | undefined {
    const response = this.resolve<{ content?: Record<string, { schema?: Json }> }>(operation.responses[status]);
    const schema = response.content?.["application/json"]?.schema;
    if (schema) this.validator(`${operation.operationId} ${status}`, schema);
    return schema;
  }

  private check(key: string, schema: Json, value: unknown, prefix: string): ErrorObject[] {
    const validate = this.validator(key, schema);
    return validate(value) ? [] : (validate.errors ?? []).map((e) => ({ ...e, instancePath: `${prefix}${e.instancePath}` }));
  }

  private validator(key: string, schema: Json): ValidateFunction {
    let validate = this.compiled.get(key);
    if (!validate) {
      validate = this.ajv.compile(rebase(schema) as Json);
      this.compiled.set(key, validate);
    }
    return validate;
  }

  /** Follows a local `$ref` (to a parameter or response of the components) to what it names. */
  private resolve<T>(node: unknown): T {
    let current = node as Json;
    while (typeof current?.$ref === "string") {
      current = (current.$ref as string)
        .slice(2)
        .split("/")
        .reduce<Json>((at, part) => at[part.replace(/~1/g, "/").replace(/~0/g, "~")] as Json, this.doc as unknown as Json);
    }
    return current as T;
  }

  private match(method: string, pathname: string): { operation: Operation; raw: Record<string, string> } | null {
    const parts = pathname.split("/").slice(1);
    for (const template of this.templates) {
      const operation = this.doc.paths[template.path][method];
      // A multi-segment parameter may take more segments than its template has, never fewer.
      if (!operation || template.segments.length > parts.length) continue;
      const multi = new Set(
        (operation.parameters ?? [])
          .map((p) => this.resolve<Parameter>(p))
          .filter((p) => p["x-multi-segment"])
          .map((p) => p.name),
      );
      const raw = bind(template.segments, parts, multi);
      if (raw) return { operation, raw };
    }
    return null;
  }
}

/** Binds a template's segments to a path's; a parameter marked `x-multi-segment` (a git ref) may span several segments. */
function bind(template: string[], parts: string[], multi: Set<string>): Record<string, string> | null {
  if (template.length === 0) return parts.length === 0 ? {} : null;
  if (parts.length === 0) return null;
  const [head, ...rest] = template;
  const name = /^\{(.+)\}$/.exec(head)?.[1];
  if (!name) return head === parts[0] ? bind(rest, parts.slice(1), multi) : null;
  const widest = multi.has(name) ? parts.length - rest.length : 1;
  for (let take = widest; take >= 1; take--) {
    const value = parts.slice(0, take).map(decodeSegment).join("/");
    if (value === "") continue;
    const bound = bind(rest, parts.slice(take), multi);
    if (bound) return { [name]: value, ...bound };
  }
  return null;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Path and query values arrive as text; the description's type says what they are meant to be. */
function coerce(text: string, schema: Json): unknown {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if ((type === "integer" && /^-?\d+$/.test(text)) || (type === "number" && text.trim() !== "" && !Number.isNaN(Number(text)))) return Number(text);
  if (type === "boolean" && (text === "true" || text === "false")) return text === "true";
  if (type === "array") return text.split(",");
  return text;
}

function missing(instancePath: string, name: string): ErrorObject {
  return { instancePath, schemaPath: "#/required", keyword: "required", params: { missingProperty: name }, message: `must have required property '${name}'` };
}
