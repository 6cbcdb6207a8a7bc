// A finding: one instance of a MAST failure mode in the journal, with the events that show it.
import { CATEGORIES, type Category, MODES, type ModeId, type Reach, type Severity, severityOf } from "./modes";
import { uniq } from "./journal-facts";

export interface Finding {
  /** Stable while the journal grows: the mode and the event that first showed it (the live monitor journals each once). */
  key: string;
  mode: ModeId;
  name: string;
  category: Category;
  categoryName: string;
  severity: Severity;
  /** One sentence naming who and what, by name and task number (never ids). */
  sentence: string;
  /** The events that show it, in journal order. */
  eventIds: number[];
  runIds: string[];
  taskIds: string[];
  /** Principal ids involved. */
  agents: string[];
}

/** What a detector says about one instance; the mode's name, category and severity are filled in here. */
export interface Instance {
  /** The event that first showed it: with the mode, the finding's key. */
  anchor: number;
  reach: Reach;
  sentence: string;
  eventIds: readonly number[];
  runIds?: readonly (string | null)[];
  taskIds?: readonly (string | null)[];
  agents?: readonly (string | null)[];
}

const present = <T>(values: readonly (T | null | undefined)[] = []) => uniq(values.filter((v): v is T => v !== null && v !== undefined));

export function finding(mode: ModeId, instance: Instance): Finding {
  const { name, category } = MODES[mode];
  return {
    key: `${mode}:${instance.anchor}`,
    mode,
    name,
    category,
    categoryName: CATEGORIES[category],
    severity: severityOf(instance.reach),
    sentence: instance.sentence,
    eventIds: uniq(instance.eventIds).sort((a, b) => a - b),
    runIds: present(instance.runIds),
    taskIds: present(instance.taskIds),
    agents: present(instance.agents),
  };
}
