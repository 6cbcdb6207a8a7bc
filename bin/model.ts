// `quorum model check`: probes the configured model once (reachable, key accepted, model known, a tool
// call works) and prints one line per problem naming the variable to fix; exit 1 when there is one.
import { probeLines, probeModel } from "../agents/model/probe";

export const MODEL_USAGE = "  quorum model check                    probe the configured model (QUORUM_MODEL…): reachable, key accepted, model known, tool calls work";

export async function modelCommand(sub: string | undefined, env: Record<string, string | undefined> = process.env): Promise<number> {
  if (sub !== "check") {
    console.error(`usage:\n${MODEL_USAGE}`);
    return 1;
  }
  const result = await probeModel(env);
  for (const line of probeLines(result)) (result.ok ? console.log : console.error)(line);
  return result.ok ? 0 : 1;
}
