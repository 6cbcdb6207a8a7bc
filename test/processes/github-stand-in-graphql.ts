// GitHub's GraphQL endpoint (/api/graphql), for the one mutation the hub sends: markPullRequestReadyForReview,
// which REST cannot do. Every query is first validated against GitHub's published schema (@octokit/graphql-schema);
// one it refuses is answered with GraphQL errors, as GitHub answers them, and recorded as a violation.
import { validate } from "@octokit/graphql-schema";
import { type ArgumentNode, Kind, type OperationDefinitionNode, parse, type ValueNode } from "graphql";
import { now, store } from "./github-stand-in-views";

export interface GraphqlAnswer {
  status: number;
  answer: unknown;
  /** What GitHub's schema refused, or what the stand-in does not serve: a violation to record. */
  problems: string[];
}

const refused = (problems: string[]): GraphqlAnswer => ({ status: 200, answer: { errors: problems.map((message) => ({ message })) }, problems });

/** An argument's value, a variable's read from `variables`. */
function argumentValue(node: ValueNode, variables: Record<string, unknown>): unknown {
  if (node.kind === Kind.VARIABLE) return variables[node.name.value];
  if (node.kind === Kind.OBJECT) return Object.fromEntries(node.fields.map((f) => [f.name.value, argumentValue(f.value, variables)]));
  return "value" in node ? node.value : null;
}

export function answerGraphql(body: unknown): GraphqlAnswer {
  const { query, variables = {} } = (body ?? {}) as { query?: unknown; variables?: Record<string, unknown> };
  if (typeof query !== "string") return { status: 400, answer: { message: "A query attribute must be specified and must be a string." }, problems: ["no query"] };
  let problems: string[];
  try {
    problems = validate(query).map((error) => error.message);
  } catch (error) {
    problems = [error instanceof Error ? error.message : String(error)];
  }
  if (problems.length) return refused(problems);
  const operation = parse(query).definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  const field = operation?.selectionSet.selections[0];
  if (operation?.operation !== "mutation" || field?.kind !== Kind.FIELD || field.name.value !== "markPullRequestReadyForReview") {
    return refused(["the stand-in serves the mutation markPullRequestReadyForReview only"]);
  }
  const argument = field.arguments?.find((a: ArgumentNode) => a.name.value === "input");
  const input = (argument ? argumentValue(argument.value, variables) : {}) as { pullRequestId?: string };
  const pull = store.pulls.find((p) => `PR_kwDO${p.id}` === input.pullRequestId);
  if (!pull) {
    const message = `Could not resolve to a node with the global id of '${input.pullRequestId}'`;
    return {
      status: 200,
      answer: { data: { markPullRequestReadyForReview: null }, errors: [{ type: "NOT_FOUND", path: ["markPullRequestReadyForReview"], message }] },
      problems: [],
    };
  }
  Object.assign(pull, { draft: false, updatedAt: now() });
  return { status: 200, answer: { data: { markPullRequestReadyForReview: { pullRequest: { number: pull.number, isDraft: false } } } }, problems: [] };
}
