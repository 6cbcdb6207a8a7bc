// Every route of the HTTP API as data: its path, the very zod schemas its handler reads params, query and
// body with (imported from domain/, as the handler imports them), its success answer and its refusals,
// one file per institution. surfaces/http/document.test.ts fails when a route handler under app/api has no entry here.
// The order is the document's: it lists paths and names shared schemas in this order, and the generated
// client (client/schema.ts) follows it, so moving a list moves the client too.
import { A2A_ROUTES } from "./a2a";
import { BILL_ROUTES } from "./bill";
import { COMMITMENT_ROUTES } from "./commitments";
import { DECISION_ROUTES } from "./decisions";
import { DIAGNOSIS_ROUTES } from "./diagnosis";
import { EXPERIMENT_ROUTES } from "./experiments";
import { FLIGHT_ROUTES } from "./flights";
import { FORGE_WEBHOOK_ROUTES } from "./forge-webhooks";
import { FORGE_ROUTES } from "./forges";
import { INVITATION_ROUTES } from "./invitations";
import { JOURNAL_ROUTES } from "./journal";
import { MCP_ROUTES } from "./mcp";
import { MEMORY_ROUTES } from "./memory";
import { PRINCIPAL_ROUTES } from "./principals";
import { PROPOSAL_ROUTES } from "./proposals";
import { RESERVATION_ROUTES } from "./reservations";
import { REVIEW_COMMENT_ROUTES } from "./review-comments";
import { ROOM_ROUTES } from "./rooms";
import type { RouteSpec } from "./route-spec";
import { RUN_ROUTES } from "./runs";
import { SERVICE_ROUTES } from "./service";
import { TASK_ROUTES } from "./tasks";
import { WEBHOOK_ROUTES } from "./webhooks";

export const ROUTES: RouteSpec[] = [
  ...SERVICE_ROUTES,
  ...PRINCIPAL_ROUTES,
  ...INVITATION_ROUTES,
  ...ROOM_ROUTES,
  ...TASK_ROUTES,
  ...REVIEW_COMMENT_ROUTES,
  ...DECISION_ROUTES,
  ...COMMITMENT_ROUTES,
  ...MEMORY_ROUTES,
  ...RESERVATION_ROUTES,
  ...RUN_ROUTES,
  ...JOURNAL_ROUTES,
  ...DIAGNOSIS_ROUTES,
  ...BILL_ROUTES,
  ...FLIGHT_ROUTES,
  ...PROPOSAL_ROUTES,
  ...WEBHOOK_ROUTES,
  ...FORGE_ROUTES,
  ...FORGE_WEBHOOK_ROUTES,
  ...MCP_ROUTES,
  ...EXPERIMENT_ROUTES,
  ...A2A_ROUTES,
];
