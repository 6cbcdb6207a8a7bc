// npm run client:generate: writes client/schema.ts, the types of quorum/client, from the OpenAPI document.
import { writeFileSync } from "node:fs";
import { CLIENT_SCHEMA_PATH, clientSchemaSource } from "./client-source";

writeFileSync(CLIENT_SCHEMA_PATH, await clientSchemaSource());
console.log(`wrote ${CLIENT_SCHEMA_PATH}`);
