// Where a finding sits on a page: the Diagnosis panel's element for it, which "waiting for you" links to.

/** The element id of a finding's card (its key, made safe for a URL fragment). */
export function findingAnchor(key: string): string {
  return `finding-${key.replace(/[^\w-]/g, "-")}`;
}
