// The reference page renders every operation of the document, grouped by tag, with a curl line that carries
// the bearer key where the route wants a credential and none where it is public.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { openApiDocument } from "@/surfaces/http/api-document";
import ApiReferencePage from "./page";

describe("the API reference page", () => {
  it("renders every operation from the OpenAPI document, with the right auth header in its curl line", () => {
    const html = renderToStaticMarkup(createElement(ApiReferencePage));
    const doc = openApiDocument();
    for (const ops of Object.values(doc.paths)) for (const op of Object.values(ops)) expect(html).toContain(`id="${op.operationId}"`);
    for (const tag of doc.tags as { name: string }[]) expect(html).toContain(`>${tag.name}</h2>`);
    const card = (id: string) => html.slice(html.indexOf(`id="${id}"`), html.indexOf("</article>", html.indexOf(`id="${id}"`)));
    expect(card("postTasksIdClaim")).toContain("Authorization: Bearer $QUORUM_KEY");
    expect(card("postTasksIdClaim")).toContain("curl -s -X POST &#x27;http://127.0.0.1:3000/api/tasks/$ID/claim&#x27;");
    expect(card("getHealth")).not.toContain("Authorization");
    expect(card("postRoomsRoomMessages")).toContain("409");
    expect(card("postRoomsRoomMessages")).toContain("Stale");
  });
});
