// The API's OpenAPI document: every declaration of surfaces/http/routes/ (the reference page, the client generator
// and the tests read it here; the router serves the same, built once).
import { documentOf, type OpenApiDocument, servedDocument } from "./document";
import { ROUTES } from "./routes";

export const buildOpenApiDocument = (): OpenApiDocument => documentOf(ROUTES);

export const openApiDocument = (): OpenApiDocument => servedDocument(ROUTES);
