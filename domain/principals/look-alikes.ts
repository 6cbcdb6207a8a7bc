// Names that read as another's: a human could register agents named `QUORUM`, `quorum.`,
// `ROOT` or `system`, or give one the role `human`, and a model reading the room would take its words
// for Quorum's or a person's. Names are compared by their skeleton — case folded, the characters that
// look alike in a chat font (0/o, 1/l/i) made one, and the separators `.`, `_`, `-` dropped — so two
// principals never share one, and an agent's never matches a name that speaks with authority.

/** Names an agent may not take, nor anything that reads like them. */
const AUTHORITY_NAMES = ["quorum", "system", "root", "admin", "administrator", "superuser", "sudo", "postgres", "human", "operator"];

/** Roles an agent may not claim: it would pass for a person or for Quorum. */
const AUTHORITY_ROLES = new Set(["human", "system", "quorum"]);

/** What a name looks like to a reader: `Qu0rum.` and `quorum` share `qu0rum`'s skeleton. */
export function nameSkeleton(name: string): string {
  return name.toLowerCase().replace(/[._-]/g, "").replace(/0/g, "o").replace(/[1i|]/g, "l");
}

const AUTHORITY_SKELETONS = new Set(AUTHORITY_NAMES.map(nameSkeleton));

/** Why an agent may not be called `name`, or null. */
export function authorityNameProblem(name: string): string | null {
  return AUTHORITY_SKELETONS.has(nameSkeleton(name)) ? `'${name}' reads as a name that speaks for Quorum or its operators; choose another` : null;
}

/** Why an agent may not have `role`, or null. */
export function authorityRoleProblem(role: string): string | null {
  return AUTHORITY_ROLES.has(role.trim().toLowerCase()) ? `an agent's role may not be '${role.trim()}'` : null;
}

/** The existing name `name` would be mistaken for, if any (its own exact name is the caller's to handle). */
export function lookAlikeOf(name: string, existing: readonly string[]): string | undefined {
  const skeleton = nameSkeleton(name);
  return existing.find((other) => other !== name && nameSkeleton(other) === skeleton);
}
