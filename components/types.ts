// Shapes the browser receives from the API (mirrors of the server's views).
export interface Me {
  id: string;
  kind: "human" | "agent" | "system";
  name: string;
  role: string | null;
}

export interface RosterEntry extends Me {
  present: boolean;
  lastSeenAt: string | null;
}

export interface Message {
  id: number;
  seq: number;
  room: string;
  senderId: string;
  senderName: string;
  senderKind: "human" | "agent" | "system";
  to: string | null;
  toName: string | null;
  performative: string | null;
  taskId: string | null;
  body: string;
  mentions: string[];
  /** Set when the agent posted over unread messages with a hold token: the latest seq it had been shown. */
  heldSeq?: number | null;
  createdAt: string;
}

export interface JournalEntry {
  id: number;
  t: string;
  kind: string;
  actor: string | null;
  actorName: string | null;
  runId: string | null;
  taskId: string | null;
  turn: number | null;
  data: unknown;
}

export interface Page<T> {
  items: T[];
  next?: number;
}

/** The room's roster entry: presence, and the focus window of an agent at work. */
export interface PresenceEntry extends RosterEntry {
  focusing: { taskId: string; taskTitle: string | null; taskNumber: number | null; since: string; queued: number; dropped: number } | null;
}

export interface GateRejection {
  id: number;
  t: string;
  room: string;
  gate: "rate" | "duplicate" | "freshness" | "lapping" | "two_tier";
  reason: string;
  message: string;
  senderId: string;
  senderName: string;
  bodyPreview: string;
  figures: Record<string, unknown>;
}
