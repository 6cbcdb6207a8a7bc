// Quorum's version, as its surfaces announce it: the OpenAPI document, the MCP server, the A2A agent card.
export const QUORUM_VERSION = "0.1.0";
