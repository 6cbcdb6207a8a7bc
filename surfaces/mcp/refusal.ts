// A refusal as the MCP surface sends it: the server's error body, plus its hint worded as tool calls.
import type { NextStep, QuorumError } from "../../domain/errors";

function mcpStep(step: NextStep): string {
  switch (step.action) {
    case "ack":
      return `call ack_messages with ${JSON.stringify({ room: step.room, seq: step.seq })}`;
    case "retry_with_hold_token":
      return "call post_message again with the same arguments plus holdToken from this refusal";
  }
}

export function mcpRefusal(error: QuorumError): Record<string, unknown> {
  const body = error.toBody();
  return error.hint ? { ...body, hint: error.hint.map(mcpStep).join(", or ") } : body;
}
