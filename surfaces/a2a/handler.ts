// The A2A methods (the SDK's A2ARequestHandler) over Quorum's server functions, for one authenticated caller and
// one request: every method reaches the function REST's route for it calls (create, flights, get, list, cancel,
// webhooks), with REST's schemas, so A2A can do nothing REST would refuse. A refusal is kept in `refusals` for
// the endpoint to word as A2A's error (./errors.ts); the SDK's transport would make it an internal error.
import type {
  AgentCard,
  CancelTaskRequest,
  DeleteTaskPushNotificationConfigRequest,
  GetTaskPushNotificationConfigRequest,
  GetTaskRequest,
  ListTaskPushNotificationConfigsRequest,
  ListTaskPushNotificationConfigsResponse,
  ListTasksRequest,
  ListTasksResponse,
  SendMessageRequest,
  StreamResponse,
  SubscribeToTaskRequest,
  Task,
  TaskPushNotificationConfig,
  TaskState,
} from "@a2a-js/sdk";
import type { A2ARequestHandler } from "@a2a-js/sdk/server";
import { type A2AError, ExtendedAgentCardNotConfiguredError, TaskNotCancelableError, UnsupportedOperationError } from "@a2a-js/sdk/errors";
import type { ServerContext } from "../../domain/context";
import { fail, QuorumError } from "../../domain/errors";
import type { Principal } from "../../domain/principal";
import { cancelTask, cancelTaskInput } from "../../domain/tasks/cancel";
import { taskIdOf, taskRef } from "../../domain/tasks/ref";
import { listA2ATasks } from "./list";
import { createPushConfig, deletePushConfig, getPushConfig, listPushConfigs, pushConfigInput } from "../../domain/webhooks/a2a-push";
import { sendToQuorum } from "./send";
import type { SkillDef } from "./skill";
import { isSettled, isTerminal } from "./state";
import { readA2ATask } from "./task";
import { followTask } from "./updates";

/** The refusal a method ended with, and the A2A error it stands for where the method knows better (a cancel). */
export interface Refusals {
  error?: QuorumError;
  as?: A2AError;
}

export interface HandlerOptions {
  hubUrl: string;
  card: AgentCard;
  /** What SendMessage can make of a message (derived from the endpoints: surfaces/http/skills.ts). */
  skills: SkillDef[];
  /** The HTTP request the call came on; its signal aborts when the client goes away, and streams and blocking sends stop. */
  request: Request;
}

export class QuorumA2AHandler implements A2ARequestHandler {
  readonly refusals: Refusals = {};

  constructor(
    private readonly ctx: ServerContext,
    private readonly caller: Principal,
    private readonly options: HandlerOptions,
  ) {}

  /** Runs one method; a refusal is recorded (with what A2A calls it, when `as` says) and thrown on. */
  private async refusing<T>(run: () => Promise<T>, as?: (error: QuorumError) => A2AError | undefined): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (error instanceof QuorumError) Object.assign(this.refusals, { error, as: as?.(error) });
      throw error;
    }
  }

  /** A task reference as REST takes it (the id, or its number); anything else names no task. */
  private taskId(ref: string): Promise<string> {
    if (!taskRef.safeParse(ref).success) throw fail.notFound("task", `no task '${ref.slice(0, 64)}'`);
    return taskIdOf(this.ctx.db, ref);
  }

  private read(taskId: string, includeArtifacts = true): Promise<Task> {
    return readA2ATask(this.ctx.db, this.caller, taskId, { hubUrl: this.options.hubUrl, includeArtifacts });
  }

  private follow(taskId: string, until: (state: TaskState) => boolean) {
    return followTask(this.ctx, this.caller, taskId, { hubUrl: this.options.hubUrl, signal: this.options.request.signal, until });
  }

  async getAgentCard(): Promise<AgentCard> {
    return this.options.card;
  }

  async getAuthenticatedExtendedAgentCard(): Promise<AgentCard> {
    throw new ExtendedAgentCardNotConfiguredError("Quorum's card is the same for everyone: read /.well-known/agent-card.json");
  }

  /** Files what the message asks for, sets its push config if one came with it, and returns the task (or the message's refusal). */
  private send(params: SendMessageRequest): Promise<string> {
    return this.refusing(async () => {
      const taskId = await sendToQuorum(this.ctx, this.caller, params, this.options.skills, this.options.request);
      const push = params.configuration?.taskPushNotificationConfig;
      if (push?.url) await createPushConfig(this.ctx.db, this.caller, taskId, this.pushInput(push), this.ctx.clock);
      return taskId;
    });
  }

  async sendMessage(params: SendMessageRequest): Promise<Task> {
    const taskId = await this.send(params);
    if (params.configuration?.returnImmediately) return this.refusing(() => this.read(taskId));
    // Blocking (A2A's default): the answer waits until the task is settled (terminal, or waiting for its approver).
    return this.refusing(async () => {
      let last: Task | undefined;
      for await (const task of this.follow(taskId, isSettled)) last = task;
      return last ?? this.read(taskId);
    });
  }

  async *sendMessageStream(params: SendMessageRequest): AsyncGenerator<StreamResponse, void, undefined> {
    const taskId = await this.send(params);
    yield* this.updates(taskId, isSettled);
  }

  /** The task, then a status update at each change, until `until`; a stream's first event is the task itself (A2A §3.1.2). */
  private async *updates(taskId: string, until: (state: TaskState) => boolean): AsyncGenerator<StreamResponse, void, undefined> {
    let first = true;
    for await (const task of this.follow(taskId, until)) {
      if (first) yield { payload: { $case: "task", value: task } };
      else yield { payload: { $case: "statusUpdate", value: { taskId: task.id, contextId: task.contextId, status: task.status, metadata: task.metadata } } };
      first = false;
    }
  }

  async getTask(params: GetTaskRequest): Promise<Task> {
    return this.refusing(async () => this.read(await this.taskId(params.id)));
  }

  async listTasks(params: ListTasksRequest): Promise<ListTasksResponse> {
    return this.refusing(() => listA2ATasks(this.ctx.db, this.caller, params, this.options.hubUrl));
  }

  /** REST's cancel, with its ADR from the request's metadata (`metadata.adr`); no ADR, no cancel. */
  async cancelTask(params: CancelTaskRequest): Promise<Task> {
    return this.refusing(
      async () => {
        const taskId = await this.taskId(params.id);
        const input = cancelTaskInput.safeParse({ adr: params.metadata?.adr });
        if (!input.success) {
          throw fail.invalid(
            "request",
            `cancelling needs an ADR in metadata.adr {title, context, decision, consequences}: ${input.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`,
            {
              issues: input.error.issues,
            },
          );
        }
        await cancelTask(this.ctx.db, this.caller, taskId, input.data, this.ctx.clock);
        return this.read(taskId);
      },
      (error) => (error.code === "wrong_status" ? new TaskNotCancelableError(error.message) : undefined),
    );
  }

  /** Updates of a task until it ends; one that has ended already has nothing to follow (read it with GetTask). */
  async *resubscribe(params: SubscribeToTaskRequest): AsyncGenerator<StreamResponse, void, undefined> {
    const taskId = await this.refusing(() => this.taskId(params.id));
    const now = await this.refusing(() => this.read(taskId, false));
    if (now.status && isTerminal(now.status.state)) throw new UnsupportedOperationError("the task has ended: read it with GetTask");
    yield* this.updates(taskId, isTerminal);
  }

  private pushInput(config: TaskPushNotificationConfig) {
    const parsed = pushConfigInput.safeParse({
      ...(config.id ? { id: config.id } : {}),
      url: config.url,
      ...(config.token ? { token: config.token } : {}),
      ...(config.authentication ? { authentication: { scheme: config.authentication.scheme, credentials: config.authentication.credentials } } : {}),
    });
    if (!parsed.success) {
      throw fail.invalid("request", `invalid push notification config: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`, {
        issues: parsed.error.issues,
      });
    }
    return parsed.data;
  }

  async createTaskPushNotificationConfig(params: TaskPushNotificationConfig): Promise<TaskPushNotificationConfig> {
    return this.refusing(async () => createPushConfig(this.ctx.db, this.caller, await this.taskId(params.taskId), this.pushInput(params), this.ctx.clock));
  }

  async getTaskPushNotificationConfig(params: GetTaskPushNotificationConfigRequest): Promise<TaskPushNotificationConfig> {
    return this.refusing(async () => getPushConfig(this.ctx.db, this.caller, await this.taskId(params.taskId), params.id));
  }

  async listTaskPushNotificationConfigs(params: ListTaskPushNotificationConfigsRequest): Promise<ListTaskPushNotificationConfigsResponse> {
    return this.refusing(async () => ({ configs: await listPushConfigs(this.ctx.db, this.caller, await this.taskId(params.taskId)), nextPageToken: "" }));
  }

  async deleteTaskPushNotificationConfig(params: DeleteTaskPushNotificationConfigRequest): Promise<void> {
    return this.refusing(async () => deletePushConfig(this.ctx.db, this.caller, await this.taskId(params.taskId), params.id, this.ctx.clock));
  }
}
