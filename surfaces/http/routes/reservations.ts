// Reservations: repository globs held under a lease, and the pre-commit question.
import { checkPaths, checkPathsInput } from "@/domain/reservations/check-paths";
import { forceReleaseInput, forceReleaseReservation } from "@/domain/reservations/force-release";
import { listReservations, listReservationsQuery } from "@/domain/reservations/list";
import { releaseReservation, releaseReservationInput } from "@/domain/reservations/release";
import { renewReservation, renewReservationInput } from "@/domain/reservations/renew";
import { reservePaths, reservePathsInput } from "@/domain/reservations/reserve";
import { reservedError, staleFenceError } from "../errors";
import * as v from "../views";
import { uuidId, ok, created, type RouteSpec, TAGS, endpoint } from "./route-spec";
import * as out from "@/surfaces/mcp/outputs";
import { DESTRUCTIVE, IDEMPOTENT, READ, WRITE } from "@/surfaces/mcp/tool";

export const RESERVATION_ROUTES: RouteSpec[] = [
  endpoint({
    method: "get",
    path: "/api/reservations",
    tag: TAGS.reservations,
    summary: "Reservations (live ones by default)",
    access: "principal",
    query: listReservationsQuery,
    answers: ok(v.page(v.reservation)),
    refusals: [],
    tool: {
      name: "list_reservations",
      description: "Reservations (live by default); holder=me for yours.",
      hints: READ,
      output: out.page(out.reservationOut),
    },
    run: async ({ ctx, caller, query }) => await listReservations(ctx.db, caller, query, ctx.clock.now()),
  }),
  endpoint({
    method: "post",
    path: "/api/reservations",
    tag: TAGS.reservations,
    summary: "Reserve repository globs under a lease; an overlapping exclusive hold is refused with its `holders`",
    access: "principal",
    body: reservePathsInput,
    answers: created(v.reservation),
    refusals: [403, 404, 409],
    conflicts: [reservedError],
    otherConflicts: ["too_many_reservations"],
    tool: {
      name: "reserve_paths",
      description:
        "Reserve repo-relative globs before editing (src/lib/**, docs/*.md, a/{b,c}.ts). exclusive (default) or shared; ttlSeconds lease (default 1800, at most 7200). An agent may hold at most 8 live reservations and no glob over the whole repo (**, **/*.ts). Overlap with another's exclusive hold is refused (reserved) with the holders.",
      hints: WRITE,
      output: out.reservationOut,
    },
    run: async ({ ctx, caller, body }) => await reservePaths(ctx.db, caller, body, ctx.clock),
  }),
  endpoint({
    method: "post",
    path: "/api/reservations/check",
    tag: TAGS.reservations,
    summary: "Which paths someone else holds (the pre-commit hook's question)",
    access: "principal",
    body: checkPathsInput,
    answers: ok(v.pathCheck),
    refusals: [],
    tool: {
      name: "check_paths",
      description: "Which of these concrete paths someone else holds (blocked: exclusive; shared: nearby work).",
      hints: READ,
      output: out.pathCheckOut,
    },
    run: async ({ ctx, caller, body }) => await checkPaths(ctx.db, caller, body, ctx.clock.now()),
  }),
  endpoint({
    method: "post",
    path: "/api/reservations/{id}/renew",
    tag: TAGS.reservations,
    summary: "Renew your reservation's lease",
    access: "principal",
    params: uuidId,
    body: renewReservationInput,
    answers: ok(v.reservation),
    refusals: [403, 404, 409],
    conflicts: [staleFenceError, reservedError],
    otherConflicts: ["wrong_status"],
    tool: {
      name: "renew_reservation",
      description: "Extend your reservation's lease; carries its fence (stale_fence once it ended).",
      hints: IDEMPOTENT,
      output: out.reservationOut,
      args: { id: "reservationId" },
    },
    run: async ({ ctx, caller, params, body }) => {
      const { id } = params;
      return await renewReservation(ctx.db, caller, id, body, ctx.clock);
    },
  }),
  endpoint({
    method: "post",
    path: "/api/reservations/{id}/release",
    tag: TAGS.reservations,
    summary: "Release your reservation",
    access: "principal",
    params: uuidId,
    body: releaseReservationInput,
    answers: ok(v.reservation),
    refusals: [403, 404, 409],
    conflicts: [staleFenceError],
    otherConflicts: ["wrong_status"],
    tool: {
      name: "release_reservation",
      description: "Release your reservation (with its fence) when the edit is committed.",
      hints: DESTRUCTIVE,
      output: out.reservationOut,
      args: { id: "reservationId" },
    },
    run: async ({ ctx, caller, params, body }) => {
      const { id } = params;
      return await releaseReservation(ctx.db, caller, id, body, ctx.clock);
    },
  }),
  endpoint({
    method: "post",
    path: "/api/reservations/{id}/force-release",
    tag: TAGS.reservations,
    summary: "End someone's stale reservation (humans); its holder is told",
    access: "principal",
    params: uuidId,
    body: forceReleaseInput,
    answers: ok(v.reservation),
    refusals: [403, 404, 409],
    otherConflicts: ["wrong_status"],
    run: async ({ ctx, caller, params, body }) => {
      const { id } = params;
      return await forceReleaseReservation(ctx.db, caller, id, body, ctx.clock);
    },
  }),
];
