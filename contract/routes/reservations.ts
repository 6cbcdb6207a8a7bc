// Reservations: repository globs held under a lease, and the pre-commit question.
import { checkPathsInput } from "@/server/reservations/check-paths";
import { forceReleaseInput } from "@/server/reservations/force-release";
import { listReservationsQuery } from "@/server/reservations/list";
import { releaseReservationInput } from "@/server/reservations/release";
import { renewReservationInput } from "@/server/reservations/renew";
import { reservePathsInput } from "@/server/reservations/reserve";
import { reservedError, staleFenceError } from "../errors";
import * as v from "../views";
import { uuidId, ok, created, type RouteSpec, TAGS } from "./route-spec";

export const RESERVATION_ROUTES: RouteSpec[] = [
  {
    method: "get",
    path: "/api/reservations",
    tag: TAGS.reservations,
    summary: "Reservations (live ones by default)",
    access: "principal",
    query: listReservationsQuery,
    answers: ok(v.page(v.reservation)),
    refusals: [],
  },
  {
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
  },
  {
    method: "post",
    path: "/api/reservations/check",
    tag: TAGS.reservations,
    summary: "Which paths someone else holds (the pre-commit hook's question)",
    access: "principal",
    body: checkPathsInput,
    answers: ok(v.pathCheck),
    refusals: [],
  },
  {
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
  },
  {
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
  },
  {
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
  },
];
