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
