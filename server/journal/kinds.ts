// Every kind of journal event; a new kind joins by adding a line.
export const EVENT_KINDS = [
  // the runtime
  "RunStarted",
  "ModelCalled",
  "ModelResponded",
  "BudgetDebited",
  "ToolDispatched",
  "ToolReturned",
  "MessageSent",
  "MessageDelivered",
  "AgentFinished",
  "BudgetExhausted",
  // principals and rooms
  "PrincipalCreated",
  "AgentKeyIssued",
  "HumanSignedIn",
  "RoomCreated",
  "CursorAdvanced",
  "GateRejected",
] as const;

export type EventKind = (typeof EVENT_KINDS)[number];
