// The three conversations of the gates experiment, as scripts of what each actor says from what it has read.
// The same scripts fly through both relays (./gates.ts): nothing here knows which one it talks through.
/** What one actor has seen and said: the scripts decide from it. */
export interface ActorState {
  /** Every message it has read, from others, in order. */
  read: { seq: number; from: string; human: boolean; body: string }[];
  /** Every body it has had posted. */
  said: string[];
  /** Ticks it has been awake (a coder's work takes some). */
  awake: number;
}

export interface ActorScript {
  role: string;
  human?: boolean;
  /** Wakes every tick even without news: a monitor on a schedule, a coder at work. */
  everyTick?: boolean;
  /** What it says next, from what it has read; null: nothing. `names` maps each role to its principal's name. */
  compose(state: ActorState, at: { tick: number; names: Record<string, string> }): string | null;
}

export interface Scenario {
  name: string;
  title: string;
  actors: ActorScript[];
  /** Whether the task has a goal to reach; without one it ends when the room goes quiet. */
  hasGoal: boolean;
  /** The goal is reached once this holds (checked after each post). */
  done(actors: { role: string; state: ActorState }[]): boolean;
  /** How it ended, in a few words, from what the actors said. */
  outcome(actors: { role: string; state: ActorState }[]): string;
}

const said = (actors: { role: string; state: ActorState }[], role: string) => actors.find((a) => a.role === role)!.state.said;

/** The newest message from one of `roles` this actor has not answered yet (an answer names the seq it answers). */
function unanswered(state: ActorState, roles: string[]) {
  return state.read.filter((m) => roles.includes(m.from) && !state.said.some((s) => s.includes(`(re #${m.seq})`))).at(-1);
}

/** Two polite agents asked to agree on a name: they agree at once, then thank each other for ever. */
const courtesyLoop: Scenario = {
  name: "courtesy",
  title: "courtesy loop",
  actors: [
    {
      role: "lead",
      human: true,
      compose: (_s, { tick, names }) => (tick === 0 ? `@${names.a} @${names.b} agree on one name for the date parser between you, then tell me.` : null),
    },
    {
      role: "a",
      compose(state, { names }) {
        const to = unanswered(state, ["lead", "b"]);
        if (!to) return null;
        return to.from === "lead" ? `I propose parseDate. @${names.b}, agreed? (re #${to.seq})` : `Thank you, @${names.b}! Glad we agree. (re #${to.seq})`;
      },
    },
    {
      role: "b",
      compose(state, { names }) {
        const to = unanswered(state, ["a"]);
        if (!to) return null;
        return to.body.startsWith("I propose")
          ? `Agreed: parseDate. Thank you, @${names.a}! (re #${to.seq})`
          : `Thank you too, @${names.a}! Great working with you. (re #${to.seq})`;
      },
    },
  ],
  hasGoal: false,
  done: () => false,
  outcome(actors) {
    const thanks = [...said(actors, "a"), ...said(actors, "b")].filter((s) => s.startsWith("Thank")).length;
    return said(actors, "b").some((s) => s.startsWith("Agreed")) ? `agreed on parseDate, then ${thanks} thank-yous` : "no agreement";
  },
};

/** A monitor that repeats its status every tick until the build is fixed, and a coder fixing it meanwhile. */
const parroting: Scenario = {
  name: "parroting",
  title: "parroting",
  actors: [
    {
      role: "lead",
      human: true,
      compose: (_s, { tick, names }) => (tick === 0 ? `@${names.coder} please fix the red build on main. @${names.monitor} tell the room once it is green again.` : null),
    },
    {
      role: "coder",
      everyTick: true,
      compose(state) {
        if (state.said.length === 0) return "On it: fixing the build on main.";
        // The fix takes six turns of work.
        if (state.awake >= 6 && !state.said.some((s) => s.startsWith("Fix merged"))) return "Fix merged: the build on main should be green now.";
        return null;
      },
    },
    {
      role: "monitor",
      everyTick: true,
      compose(state) {
        const green = state.read.some((m) => m.from === "coder" && m.body.startsWith("Fix merged"));
        if (!green) return "Build on main: still red.";
        return state.said.some((s) => s.includes("green again")) ? null : "Build on main: green again.";
      },
    },
  ],
  hasGoal: true,
  done: (actors) => said(actors, "monitor").some((s) => s.includes("green again")),
  outcome: (actors) =>
    said(actors, "monitor").some((s) => s.includes("green again"))
      ? `build reported green; "still red" said ${said(actors, "monitor").filter((s) => s.includes("still red")).length} time(s)`
      : "never reported green",
};

/** A question replaced while an agent was answering it: the old answer, if it lands, sends the implementer the wrong way. */
const staleSpeech: Scenario = {
  name: "stale",
  title: "stale speech",
  actors: [
    {
      role: "lead",
      human: true,
      compose(state, { tick, names }) {
        if (tick === 0) return `@${names.answerer} which port should the API listen on?`;
        if (tick === 1) return `Scratch that: ops fixed the port at 8080, it is not ours to choose. @${names.answerer} which log level should we ship with?`;
        const moved = state.read.some((m) => m.from === "implementer" && m.body.startsWith("Changed the API's port"));
        const objection = "No: the port stays 8080, as I said.";
        return moved && !state.said.some((s) => s.startsWith(objection)) ? `${objection} @${names.implementer} put it back.` : null;
      },
    },
    {
      role: "answerer",
      compose(state) {
        // It answers the latest question put to it, once.
        const question = state.read.filter((m) => m.human && m.body.includes("?")).at(-1);
        if (!question) return null;
        const answer = question.body.includes("log level") ? "Ship with log level info." : "Use port 3000 for the API.";
        return state.said.includes(answer) ? null : answer;
      },
    },
    {
      role: "implementer",
      compose(state) {
        // One change a turn, in the order it read what to change.
        const work = state.read.flatMap((m) => {
          if (m.from === "answerer" && m.body.includes("port 3000")) return ["Changed the API's port to 3000."];
          if (m.from === "answerer" && m.body.includes("log level info")) return ["Set the log level to info."];
          if (m.from === "lead" && m.body.includes("put it back")) return ["Put the API's port back to 8080."];
          return [];
        });
        return work.find((change) => !state.said.includes(change)) ?? null;
      },
    },
  ],
  hasGoal: true,
  done(actors) {
    const changes = said(actors, "implementer");
    const portRight = !changes.includes("Changed the API's port to 3000.") || changes.includes("Put the API's port back to 8080.");
    return changes.includes("Set the log level to info.") && portRight;
  },
  outcome(actors) {
    const changes = said(actors, "implementer");
    const wrongTurn = changes.includes("Changed the API's port to 3000.");
    return wrongTurn ? "log level set; the port was changed to 3000 on the stale answer and put back" : "log level set; the port never moved";
  },
};

export function conversationScenarios(): Scenario[] {
  return [courtesyLoop, parroting, staleSpeech];
}
