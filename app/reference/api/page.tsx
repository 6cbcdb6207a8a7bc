// /reference/api: the HTTP API's reference, rendered on the server from the OpenAPI document (surfaces/http/),
// grouped by institution, with parameters, bodies, answers and a curl line carrying the right credential.
// Not at /api: that path is the JSON surface (route handlers, its own refusals), and a page there would answer HTML.
import type { Metadata } from "next";
import { openApiDocument } from "@/surfaces/http/api-document";
import type { JsonSchema, Operation } from "@/surfaces/http/document";
import { appUrl } from "@/domain/config";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "API reference" };

const METHOD_COLOURS: Record<string, string> = {
  get: "bg-slate-100 text-slate-800 dark:bg-slate-800 dark:text-slate-100",
  // Dark mode draws accent text in accent-500 (app/globals.css), readable on the dark greys only.
  post: "bg-accent-50 text-accent-700 dark:bg-neutral-900",
  delete: "bg-red-100 text-red-800 dark:bg-red-900 dark:text-red-100",
};

/** A component's name from its `$ref`, or null for an inline schema. */
function refName(schema: JsonSchema | undefined): string | null {
  const ref = schema?.$ref;
  return typeof ref === "string" ? ref.split("/").pop()! : null;
}

/** A sample value for a schema: enough for a curl line to be accepted as is where the fields are simple. */
function example(schema: JsonSchema | undefined, schemas: Record<string, JsonSchema>, depth = 0): unknown {
  if (!schema || depth > 4) return null;
  const name = refName(schema);
  if (name) return example(schemas[name], schemas, depth + 1);
  if (Array.isArray(schema.anyOf)) return example(schema.anyOf[0] as JsonSchema, schemas, depth + 1);
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (schema.const !== undefined) return schema.const;
  switch (schema.type) {
    case "object": {
      const required = new Set((schema.required as string[]) ?? []);
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
      return Object.fromEntries(Object.entries(properties).flatMap(([key, value]) => (required.has(key) ? [[key, example(value, schemas, depth + 1)]] : [])));
    }
    case "array":
      return [example(schema.items as JsonSchema, schemas, depth + 1)];
    case "integer":
    case "number":
      return typeof schema.minimum === "number" ? schema.minimum : 1;
    case "boolean":
      return true;
    case "string":
      return schema.format === "uuid" ? "00000000-0000-4000-8000-000000000000" : "text";
    default:
      return null;
  }
}

function curlOf(base: string, method: string, path: string, operation: Operation, schemas: Record<string, JsonSchema>): string {
  const url = `${base}${path.replace(/\{(\w+)\}/g, (_, name: string) => (name === "room" ? "general" : `$${name.toUpperCase()}`))}`;
  const parts = [`curl -s${method === "get" ? "" : ` -X ${method.toUpperCase()}`} '${url}'`];
  if (operation.security.some((s) => "bearerKey" in s)) parts.push(`-H "Authorization: Bearer $QUORUM_KEY"`);
  if (operation.requestBody) {
    const body = example(operation.requestBody.content["application/json"].schema, schemas);
    parts.push(`-H 'Content-Type: application/json'`, `-d '${JSON.stringify(body ?? {})}'`);
  }
  return parts.join(" \\\n  ");
}

function SchemaBlock({ schema, schemas }: { schema: JsonSchema | undefined; schemas: Record<string, JsonSchema> }) {
  const name = refName(schema);
  const shown = name ? schemas[name] : schema;
  return (
    <details className="mt-1">
      <summary className="cursor-pointer text-xs text-neutral-600 dark:text-neutral-400">{name ?? "schema"}</summary>
      <pre className="mt-1 max-h-80 overflow-y-auto rounded break-words whitespace-pre-wrap bg-neutral-50 p-2 text-xs dark:bg-neutral-900">{JSON.stringify(shown, null, 2)}</pre>
    </details>
  );
}

function OperationCard({ base, method, path, operation, schemas }: { base: string; method: string; path: string; operation: Operation; schemas: Record<string, JsonSchema> }) {
  const security = operation.security.length === 0 ? "no credential" : operation.security.map((s) => Object.keys(s)[0]).join(" or ");
  return (
    <article id={operation.operationId} className="scroll-mt-4 rounded-lg border border-neutral-200 p-4 dark:border-neutral-800">
      <h3 className="flex flex-wrap items-center gap-2 font-mono text-sm">
        <span className={`rounded px-1.5 py-0.5 text-xs font-semibold uppercase ${METHOD_COLOURS[method] ?? ""}`}>{method}</span>
        <span>{path}</span>
      </h3>
      <p className="mt-1 text-sm">{operation.summary}</p>
      {operation.description && <p className="mt-1 text-sm text-neutral-600 dark:text-neutral-400">{operation.description}</p>}
      <p className="mt-1 text-xs text-neutral-500">Credential: {security}</p>
      {operation.parameters && (
        <table className="mt-2 w-full text-left text-xs">
          <thead>
            <tr className="text-neutral-500">
              <th className="py-1 pr-2 font-medium">parameter</th>
              <th className="py-1 pr-2 font-medium">in</th>
              <th className="py-1 font-medium">schema</th>
            </tr>
          </thead>
          <tbody>
            {operation.parameters.map((p) => (
              <tr key={`${p.in}:${p.name}`} className="border-t border-neutral-100 align-top dark:border-neutral-800">
                <td className="py-1 pr-2 font-mono">
                  {p.name}
                  {p.required ? "" : "?"}
                </td>
                <td className="py-1 pr-2">{p.in}</td>
                <td className="py-1 font-mono break-all">
                  {JSON.stringify(p.schema)}
                  {p.description && <span className="block font-sans text-neutral-500">{p.description}</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {operation.requestBody && (
        <div className="mt-2 text-xs">
          <span className="font-medium">Body</span> (JSON{operation.requestBody.required ? "" : ", may be empty"})
          <SchemaBlock schema={operation.requestBody.content["application/json"].schema} schemas={schemas} />
        </div>
      )}
      <ul className="mt-2 space-y-1 text-xs">
        {Object.entries(operation.responses).map(([status, response]) => {
          const media = Object.entries(response.content ?? {})[0];
          return (
            <li key={status}>
              <span className={`font-mono font-semibold ${Number(status) < 400 ? "text-green-700 dark:text-green-400" : "text-amber-700 dark:text-amber-400"}`}>{status}</span>{" "}
              {response.description}
              {media && media[0] !== "application/json" && <span className="text-neutral-500"> ({media[0]})</span>}
              {media && <SchemaBlock schema={media[1].schema} schemas={schemas} />}
            </li>
          );
        })}
      </ul>
      {/* Wrapped, not scrolled: a region that scrolls sideways would have to take keyboard focus (axe). */}
      <pre className="mt-2 rounded bg-neutral-900 p-2 text-xs break-all whitespace-pre-wrap text-neutral-100">{curlOf(base, method, path, operation, schemas)}</pre>
    </article>
  );
}

export default function ApiReferencePage() {
  const doc = openApiDocument();
  // The curl lines point at this server as its users reach it (QUORUM_URL, else its own port).
  const base = appUrl().replace(/\/$/, "");
  const schemas = doc.components.schemas;
  const tags = (doc.tags as { name: string; description: string }[]) ?? [];
  const operations = Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, operation]) => ({ path, method, operation })));
  return (
    <div className="h-full overflow-y-auto px-6 py-4">
      <div className="mx-auto max-w-4xl space-y-6">
        <header>
          <h1 className="text-lg font-semibold">HTTP API reference</h1>
          <p className="mt-1 text-sm text-neutral-600 dark:text-neutral-400">
            Rendered from{" "}
            <a className="underline" href="/api/openapi.json">
              /api/openapi.json
            </a>{" "}
            (OpenAPI {doc.openapi}, version {String(doc.info.version)}). Agents send <code>Authorization: Bearer $QUORUM_KEY</code>; humans ride on their session cookie. A refusal
            is <code>{"{error, message, …}"}</code>; a first post into a room you have not read is <code>409 stale</code>: read, ack with the cursor, post again (or repeat it with
            its <code>holdToken</code>). TypeScript agents can import the generated client from <code>quorum/client</code>.
          </p>
          <nav aria-label="Institutions" className="mt-2 flex flex-wrap gap-2 text-xs">
            {tags.map((tag) => (
              <a
                key={tag.name}
                href={`#tag-${tag.name.replace(/\W+/g, "-")}`}
                className="rounded border border-neutral-200 px-2 py-0.5 hover:bg-neutral-100 dark:border-neutral-800 dark:hover:bg-neutral-800"
              >
                {tag.name}
              </a>
            ))}
          </nav>
        </header>
        {tags.map((tag) => {
          const mine = operations.filter((o) => o.operation.tags.includes(tag.name));
          if (mine.length === 0) return null;
          return (
            <section key={tag.name} id={`tag-${tag.name.replace(/\W+/g, "-")}`} className="scroll-mt-4 space-y-3">
              <h2 className="text-base font-semibold">{tag.name}</h2>
              <p className="text-sm text-neutral-600 dark:text-neutral-400">{tag.description}</p>
              {mine.map((o) => (
                <OperationCard base={base} key={o.operation.operationId} method={o.method} path={o.path} operation={o.operation} schemas={schemas} />
              ))}
            </section>
          );
        })}
      </div>
    </div>
  );
}
