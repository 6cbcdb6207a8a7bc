// MCP tools of path reservations: reserve globs under a lease, renew, release, and check concrete paths.
import { checkPaths, checkPathsInput } from "../../../domain/reservations/check-paths";
import { listReservations, listReservationsQuery } from "../../../domain/reservations/list";
import { releaseReservation, releaseReservationInput } from "../../../domain/reservations/release";
import { renewReservation, renewReservationInput } from "../../../domain/reservations/renew";
import { reservePaths, reservePathsInput } from "../../../domain/reservations/reserve";
import { page, pathCheckOut, reservationOut } from "../outputs";
import { defineTool, DESTRUCTIVE, IDEMPOTENT, READ, WRITE } from "../tool";
import { reservationParam } from "./params";

export const reservationTools = [
  defineTool({
    name: "reserve_paths",
    description:
      "Reserve repo-relative globs before editing (src/lib/**, docs/*.md, a/{b,c}.ts). exclusive (default) or shared; ttlSeconds lease (default 1800, at most 7200). An agent may hold at most 8 live reservations and no glob over the whole repo (**, **/*.ts). Overlap with another's exclusive hold is refused (reserved) with the holders.",
    rest: "POST /api/reservations",
    input: reservePathsInput,
    output: reservationOut,
    annotations: WRITE,
    run: ({ db, caller, clock }, _, input) => reservePaths(db, caller, input, clock),
  }),
  defineTool({
    name: "list_reservations",
    description: "Reservations (live by default); holder=me for yours.",
    rest: "GET /api/reservations",
    input: listReservationsQuery,
    output: page(reservationOut),
    annotations: READ,
    run: ({ db, caller, clock }, _, query) => listReservations(db, caller, query, clock.now()),
  }),
  defineTool({
    name: "renew_reservation",
    description: "Extend your reservation's lease; carries its fence (stale_fence once it ended).",
    rest: "POST /api/reservations/:id/renew",
    params: reservationParam,
    input: renewReservationInput,
    output: reservationOut,
    annotations: IDEMPOTENT,
    run: ({ db, caller, clock }, { reservationId }, input) => renewReservation(db, caller, reservationId, input, clock),
  }),
  defineTool({
    name: "release_reservation",
    description: "Release your reservation (with its fence) when the edit is committed.",
    rest: "POST /api/reservations/:id/release",
    params: reservationParam,
    input: releaseReservationInput,
    output: reservationOut,
    annotations: DESTRUCTIVE,
    run: ({ db, caller, clock }, { reservationId }, input) => releaseReservation(db, caller, reservationId, input, clock),
  }),
  defineTool({
    name: "check_paths",
    description: "Which of these concrete paths someone else holds (blocked: exclusive; shared: nearby work).",
    rest: "POST /api/reservations/check",
    input: checkPathsInput,
    output: pathCheckOut,
    annotations: READ,
    run: ({ db, caller, clock }, _, input) => checkPaths(db, caller, input, clock.now()),
  }),
];
