// The JSON the API answers with, as zod schemas: each checked against the server's view type at compile time
// (`satisfies z.ZodType<View>`), and against real answers by test/api-conformance.test.ts. Objects are open
// (a field added to a view is no break); the fields listed are the ones a client may rely on.
// The views live in surfaces/http/views/, one module per institution (as surfaces/http/routes/ is split); this module
// gathers them so that routes and the document import every view from one place.
export { anyObject, health, page } from "./views/base";
export * from "./views/bill";
export * from "./views/commitments";
export * from "./views/decisions";
export * from "./views/diagnosis";
export * from "./views/experiments";
export * from "./views/flights";
export * from "./views/forges";
export * from "./views/journal";
export * from "./views/memory";
export * from "./views/principals";
export * from "./views/proposals";
export * from "./views/reservations";
export * from "./views/rooms";
export * from "./views/tasks";
