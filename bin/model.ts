// `quorum model check`: probes each configured model once, saying which roles use it (reachable, key accepted, model known, a tool
// call works) and prints one line per problem naming the variable to fix; exit 1 when there is one.
import { probeLines, probeModel } from "../agents/model/probe";
import { quorumVariables } from "../domain/config";

export const MODEL_USAGE =
  "  quorum model check                    probe each configured model (QUORUM_MODEL, QUORUM_MODEL_<ROLE>): reachable, key accepted, model known, tool calls work";

export async function modelCommand(sub: string | undefined, env = quorumVariables()): Promise<number> {
  if (sub !== "check") {
    console.error(`usage:\n${MODEL_USAGE}`);
    return 1;
  }
  const result = await probeModel(env);
  // The working models' lines to stdout, the problems to stderr.
  for (const line of probeLines(result)) (line.startsWith("Model check:") ? console.error : console.log)(line);
  return result.ok ? 0 : 1;
}
