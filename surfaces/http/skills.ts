// The A2A skills, each derived from an endpoint's declaration that has a `skill` face: SendMessage's message becomes
// the endpoint's body through the face, is read by the endpoint's own body schema and run by its own `run`, the
// call a request makes. So a skill cannot do what its endpoint would refuse.
import type { z } from "zod";
import { fail } from "@/domain/errors";
import { type SkillDef, skillCard } from "@/surfaces/a2a/skill";
import type { RouteSpec } from "./routes/route-spec";

function invalid(noun: string, error: z.ZodError) {
  return fail.invalid("request", `invalid ${noun}: ${error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ")}`, { issues: error.issues });
}

function skillOf(spec: RouteSpec, routes: RouteSpec[]): SkillDef {
  const face = spec.skill!;
  return {
    id: face.id,
    name: face.name,
    isDefault: face.isDefault === true,
    card: (team) =>
      skillCard({ id: face.id, name: face.name, description: face.now ? `${face.description} ${face.now(team)}` : face.description, tags: face.tags, examples: face.examples }),
    send: async (ctx, caller, message, request) => {
      const body = spec.body!.safeParse(face.body(message));
      if (!body.success) throw invalid(face.noun, body.error);
      const call = { ctx, caller, params: {}, query: undefined, body: body.data, request, signal: request.signal, routes };
      return face.task((await spec.run!(call as never)) as never);
    },
  };
}

const derived = new WeakMap<RouteSpec[], SkillDef[]>();

/** Every skill the declarations give, in their order; made once per list of routes. */
export function skillsOf(routes: RouteSpec[]): SkillDef[] {
  let skills = derived.get(routes);
  if (!skills) {
    skills = routes.filter((spec) => spec.skill && spec.body && spec.run).map((spec) => skillOf(spec, routes));
    derived.set(routes, skills);
  }
  return skills;
}
