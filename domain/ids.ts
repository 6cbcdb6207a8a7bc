// Ids in paths are checked before they reach a uuid column: a malformed one names nothing (404), never a 500.
const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `id` has the shape Postgres accepts for a uuid column. */
export function isUuid(id: string): boolean {
  return UUID_SHAPE.test(id);
}
