// The relay's numbers, in one place (DESIGN §5); each rule module imports the ones it applies.

/** Rate floor: at most this many messages per agent in a rolling minute, all rooms together. */
export const RATE_LIMIT = 30;
export const RATE_WINDOW_MS = 60 * 1000;

/** A human is present in a room when a human message was posted there within this span. */
export const HUMAN_PRESENT_MS = 10 * 60 * 1000;

/** Two-tier floor: the cap is max(6, ⌈μ + 2σ⌉) over the last 100 rounds, once 3 exist. */
export const TWO_TIER_FLOOR = 6;
export const TWO_TIER_ROUNDS = 100;
export const TWO_TIER_MIN_ROUNDS = 3;

/** Freshness: a hold token lives this long and works once. */
export const HOLD_TOKEN_TTL_MS = 120 * 1000;
/** A stale refusal inlines at most this many unread messages (the newest ones). */
export const UNREAD_SHOWN = 50;
