// SendMessage's mapping (the card's skills say it to callers): the message's text and its one data part become the
// body of the endpoint the chosen skill stands for (POST /api/tasks for `board`, the default; POST /api/flights for
// `team`), read by that endpoint's schema and run by its own `run` (surfaces/http/skills.ts). Nothing here decides
// anything REST does not.
import type { Message, Part, SendMessageRequest } from "@a2a-js/sdk";
import { ContentTypeNotSupportedError, UnsupportedOperationError } from "@a2a-js/sdk/errors";
import type { ServerContext } from "../../domain/context";
import { fail } from "../../domain/errors";
import type { Principal } from "../../domain/principal";
import type { SkillDef, SkillMessage } from "./skill";

/** The skill the caller chose: `metadata.skill` on the message, else on the request, else the default one. */
function skillOf(request: SendMessageRequest, message: Message, skills: SkillDef[]): SkillDef {
  const named: unknown = message.metadata?.skill ?? request.metadata?.skill;
  const chosen = named === undefined ? skills.find((s) => s.isDefault) : skills.find((s) => s.id === named);
  if (chosen) return chosen;
  const choices = skills.map((s) => `"${s.id}" (${s.name})`).join(" or ");
  throw fail.invalid("request", `no skill '${String(named).slice(0, 40)}': name ${choices}`);
}

/** The message's text (its text parts, in order) and the fields of its data part, if it has one. */
function contentOf(message: Message): SkillMessage {
  const texts: string[] = [];
  let fields: Record<string, unknown> | null = null;
  for (const part of message.parts as Part[]) {
    const content = part.content;
    if (content?.$case === "text") texts.push(content.value);
    else if (content?.$case === "data") {
      const value: unknown = content.value;
      if (fields || !value || typeof value !== "object" || Array.isArray(value)) {
        throw fail.invalid("request", "a message carries at most one data part, a JSON object of the task's fields");
      }
      fields = value as Record<string, unknown>;
    } else throw new ContentTypeNotSupportedError("Quorum takes text and one JSON data part; files are not taken (put their text in the message, or a path in the repository)");
  }
  return { text: texts.join("\n\n").trim(), fields: fields ?? {}, ...(message.contextId ? { contextId: message.contextId } : {}) };
}

/** Files what the message asks for and returns the task that stands for it. */
export async function sendToQuorum(ctx: ServerContext, caller: Principal, request: SendMessageRequest, skills: SkillDef[], http: Request): Promise<string> {
  const { message } = request;
  if (!message) throw fail.invalid("request", "SendMessage needs a message");
  if (message.taskId) {
    throw new UnsupportedOperationError("a Quorum task takes no follow-up messages over A2A: file a new task in its context (contextId), or talk in its room over MCP or REST");
  }
  const skill = skillOf(request, message, skills);
  return skill.send(ctx, caller, contentOf(message), http);
}
