// SendMessage's mapping (the card's skills say it to callers): a message becomes a task on the board (skill
// `board`, the default) or a flight's goal for the built-in team (skill `team`), through the very functions
// and schemas REST's POST /api/tasks and POST /api/flights use. The text is the task or the goal; one data part
// may carry the other fields REST takes. Nothing here decides anything those functions do not.
import type { Message, Part, SendMessageRequest } from "@a2a-js/sdk";
import { ContentTypeNotSupportedError, UnsupportedOperationError } from "@a2a-js/sdk/errors";
import type { z } from "zod";
import type { Db } from "../../db/client";
import type { Clock } from "../../domain/clock";
import { fail } from "../../domain/errors";
import { isUuid } from "../../domain/ids";
import type { Principal } from "../../domain/principal";
import { startFlightInput } from "../../domain/flights/launch";
import { startFlight } from "../../domain/flights/start";
import { createTask, createTaskInput } from "../../domain/tasks/create";
import { SKILLS, type SkillId } from "./card";

/** A task title is at most this long (domain/tasks/create.ts); a longer first line is cut, and the description keeps it whole. */
const TITLE_MAX = 200;

function invalid(what: string, error: z.ZodError) {
  return fail.invalid("request", `invalid ${what}: ${error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ")}`, { issues: error.issues });
}

/** The skill the caller chose: `metadata.skill` on the message, else on the request, else the board. */
function skillOf(request: SendMessageRequest, message: Message): SkillId {
  const named: unknown = message.metadata?.skill ?? request.metadata?.skill;
  if (named === undefined) return SKILLS.board;
  if (named === SKILLS.board || named === SKILLS.team) return named;
  throw fail.invalid("request", `no skill '${String(named).slice(0, 40)}': name "board" (a task on the board) or "team" (a goal for the built-in team)`);
}

/** The message's text (its text parts, in order) and the fields of its data part, if it has one. */
function contentOf(parts: Part[]): { text: string; fields: Record<string, unknown> } {
  const texts: string[] = [];
  let fields: Record<string, unknown> | null = null;
  for (const part of parts) {
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
  return { text: texts.join("\n\n").trim(), fields: fields ?? {} };
}

/** The first line, cut to a title's length. */
function titleOf(text: string): string {
  const line =
    text
      .split("\n")
      .find((l) => l.trim() !== "")
      ?.trim() ?? "";
  return line.length > TITLE_MAX ? `${line.slice(0, TITLE_MAX - 1)}…` : line;
}

async function fileTask(db: Db, caller: Principal, message: Message, text: string, fields: Record<string, unknown>, clock: Clock): Promise<string> {
  if (message.contextId && !isUuid(message.contextId)) throw fail.invalid("request", "contextId names a task of Quorum's (a uuid a task or its context came back with)");
  const title = fields.title ?? titleOf(text);
  const body = {
    ...fields,
    title,
    ...(fields.description === undefined && text !== title ? { description: text } : {}),
    ...(message.contextId ? { parentId: message.contextId } : {}),
  };
  if (message.contextId && fields.parentId !== undefined && fields.parentId !== message.contextId) {
    throw fail.invalid("request", "the data part's parentId and the message's contextId name different tasks");
  }
  if (!title) throw fail.invalid("request", "the message has no text to make a task of");
  const input = createTaskInput.safeParse(body);
  if (!input.success) throw invalid("task", input.error);
  return (await createTask(db, caller, input.data, clock)).id;
}

async function askTeam(db: Db, caller: Principal, message: Message, text: string, fields: Record<string, unknown>, clock: Clock): Promise<string> {
  if (message.contextId) throw fail.invalid("request", "a flight's goal starts a context of its own: send it without a contextId");
  const input = startFlightInput.safeParse({ ...fields, goal: text });
  if (!input.success) throw invalid("goal", input.error);
  return (await startFlight(db, caller, input.data, clock)).goalTask.id;
}

/** Files what the message asks for and returns the task that stands for it. */
export async function sendToQuorum(db: Db, caller: Principal, request: SendMessageRequest, clock: Clock): Promise<string> {
  const { message } = request;
  if (!message) throw fail.invalid("request", "SendMessage needs a message");
  if (message.taskId) {
    throw new UnsupportedOperationError("a Quorum task takes no follow-up messages over A2A: file a new task in its context (contextId), or talk in its room over MCP or REST");
  }
  const skill = skillOf(request, message);
  const { text, fields } = contentOf(message.parts);
  return skill === SKILLS.team ? askTeam(db, caller, message, text, fields, clock) : fileTask(db, caller, message, text, fields, clock);
}
