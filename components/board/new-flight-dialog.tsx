"use client";
// Give the team a goal on a repository of yours: its folder (looked at as you type: the commit the flight
// would start from and the test and setup commands detected there), the goal, the test command, the setup
// that installs its dependencies first, and the allowance.
// A team without a model cannot fly it: the dialog says so and how to give it one, and starts nothing.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { apiGet, apiPost, type ApiError } from "../api";
import { queryKeys } from "../query-keys";
import { toast } from "../toast";
import { useFocusWhen } from "../use-focus-when";
import { Field, FormButtons, inputClass, Modal, onValidSubmit, ServerError } from "./dialog";
import { type FlightView, type RepositoryInspection, useFlights, useTeamStatus } from "./use-flights";

interface Input {
  repo: string;
  goal: string;
  testCommand?: string;
  setupCommand?: string;
  allowance?: number;
  draftPullRequest?: boolean;
}

/** What the setup field says about where its command comes from. */
function setupHint(inspection: RepositoryInspection | undefined, setup: string, edited: boolean): string {
  const limits = "It runs once before anyone works, with only the package registries reachable.";
  if (!inspection) return `Detected from the repository once its folder is found. ${limits}`;
  const found = inspection.setup;
  if (edited && setup.trim() !== (found?.command ?? "")) return setup.trim() ? `Yours is used instead. ${limits}` : "No setup: the tests run on the repository as it is committed.";
  if (!found) return `Nothing to install was found; give a command if the tests need one. ${limits}`;
  return `${found.source === "file" ? "The repository's own .quorum/setup." : "Detected from its lockfiles."} ${limits}`;
}

type Checked = "repo" | "goal" | "allowance";

/** What is wrong with each field as it stands now, as the server would say it (checked as the human types). */
function problemsOf(values: Record<Checked, string>): Partial<Record<Checked, string>> {
  const found: Partial<Record<Checked, string>> = {};
  if (!values.repo.trim()) found.repo = "Name the repository's folder or URL.";
  if (!values.goal.trim()) found.goal = "A flight needs a goal.";
  if (values.goal.trim().length > 4000) found.goal = "At most 4000 characters.";
  const tokens = Number(values.allowance.replaceAll(",", "").replaceAll("_", ""));
  if (values.allowance.trim() && !(Number.isInteger(tokens) && tokens >= 1_000 && tokens <= 1_000_000_000)) found.allowance = "Whole tokens, 1,000 to 1,000,000,000.";
  return found;
}

/** How long typing pauses before the folder is looked at; a URL waits longer, since looking fetches it. */
const INSPECT_AFTER_MS = 400;
const FETCH_AFTER_MS = 1_200;

function useDebounced(value: string, ms: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** The folder as a flight would meet it; a refusal carries the server's reason. */
function useInspection(repo: string) {
  return useQuery<RepositoryInspection, ApiError>({
    queryKey: queryKeys.repositoryInspection(repo),
    queryFn: () => apiGet<RepositoryInspection>(`/api/flights/inspect?repo=${encodeURIComponent(repo)}`),
    enabled: repo !== "",
    retry: false,
    staleTime: 10_000,
    // A folder that will not do is said beside the path, not as the page failing to load.
    meta: { answersInPlace: true },
  });
}

/** Why this team cannot take a flight of one's own, and what to do; null when it can. */
function NoLiveTeam({ mode, id }: { mode: string | null | undefined; id: string }) {
  if (mode === undefined || (mode !== null && mode !== "scripted")) return null;
  return (
    <div
      id={id}
      role="note"
      data-testid="no-model-note"
      className="mb-4 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950/50 dark:text-amber-100"
    >
      {mode === "scripted" ? (
        <>
          <p>
            <strong className="font-semibold">The team runs scripted:</strong> no model is configured, and its script only flies the demo. To fly your own repository, give the team
            a model and restart Quorum:
          </p>
          <pre className="mt-2 rounded bg-amber-100/70 px-2 py-1 font-mono text-xs break-all whitespace-pre-wrap dark:bg-amber-900/40">
            QUORUM_MODEL=&lt;wire&gt;:&lt;model&gt; QUORUM_&lt;WIRE&gt;_API_KEY=… npm start
          </pre>
          <p className="mt-2 text-xs">
            Which wires and keys there are, and every other setting, is in docs/OPERATING.md, under Configuration; <code className="font-mono">quorum model check</code> tries the
            model before you start.
          </p>
        </>
      ) : (
        <p>
          <strong className="font-semibold">No team is running:</strong> start Quorum with its team (<code className="font-mono">npm start</code>), or run{" "}
          <code className="font-mono">quorum worker</code> beside it.
        </p>
      )}
    </div>
  );
}

export function NewFlightDialog({ open, onClose, onStarted }: { open: boolean; onClose: () => void; onStarted?: (flight: FlightView) => void }) {
  const queryClient = useQueryClient();
  const team = useTeamStatus(open);
  const defaultAllowance = useFlights().data?.defaultAllowance;
  const [repo, setRepo] = useState("");
  const [goal, setGoal] = useState("");
  const [testCommand, setTestCommand] = useState("");
  // Once the human types a command of their own, what is detected no longer replaces it.
  const [testEdited, setTestEdited] = useState(false);
  const [setupCommand, setSetupCommand] = useState("");
  const [setupEdited, setSetupEdited] = useState(false);
  const [allowance, setAllowance] = useState("");
  const [draft, setDraft] = useState(false);
  // A field's problem shows once the human has typed in it (or tried to start), and always for what it holds now.
  const [touched, setTouched] = useState<Partial<Record<Checked, boolean>>>({});
  // What the last start sent: the server's refusal of a field stands only while that field still holds it.
  const [sent, setSent] = useState<Record<string, string> | null>(null);
  const pathField = useFocusWhen<HTMLInputElement>(open);
  const looked = useDebounced(repo.trim(), /^[a-z][a-z0-9+.-]*:\/\//i.test(repo.trim()) ? FETCH_AFTER_MS : INSPECT_AFTER_MS);
  const inspection = useInspection(open ? looked : "");
  const detected = inspection.data?.testCommand ?? null;

  useEffect(() => {
    if (!testEdited && inspection.data) setTestCommand(inspection.data.testCommand ?? "");
  }, [inspection.data, testEdited]);
  useEffect(() => {
    if (!setupEdited && inspection.data) setSetupCommand(inspection.data.setup?.command ?? "");
  }, [inspection.data, setupEdited]);

  const start = useMutation<FlightView, ApiError, Input>({
    mutationFn: (input) => apiPost<FlightView>("/api/flights", input),
    onSuccess: (flight) => {
      queryClient.invalidateQueries({ queryKey: queryKeys.tasks() });
      toast(`Flight ${flight.number} started: the orchestrator plans it, and the work lands on ${flight.branch}.`);
      setRepo("");
      setGoal("");
      setTestCommand("");
      setTestEdited(false);
      setSetupCommand("");
      setSetupEdited(false);
      setAllowance("");
      close();
      onStarted?.(flight);
    },
  });

  function close() {
    start.reset();
    setTouched({});
    setSent(null);
    onClose();
  }

  const canFly = team.data !== undefined && team.data.mode !== null && team.data.mode !== "scripted";

  const current = problemsOf({ repo, goal, allowance });
  const fieldsNow: Record<string, string> = {
    repo: repo.trim(),
    goal: goal.trim(),
    testCommand: testCommand.trim(),
    setupCommand: setupCommand.trim(),
    allowance: allowance.trim(),
  };
  const problems: Partial<Record<Checked, string>> = Object.fromEntries(Object.entries(current).filter(([field]) => touched[field as Checked]));
  const touch = (field: Checked) => setTouched((t) => (t[field] ? t : { ...t, [field]: true }));

  function validate(): boolean {
    setTouched({ repo: true, goal: true, allowance: true });
    return Object.keys(current).length === 0;
  }

  const submit = () => {
    const input: Input = {
      repo: repo.trim(),
      goal: goal.trim(),
      ...(testCommand.trim() && { testCommand: testCommand.trim() }),
      // Sent only when the human changed it (empty then means: no setup); otherwise the server decides as the dialog showed.
      ...(setupEdited && setupCommand.trim() !== (inspection.data?.setup?.command ?? "") && { setupCommand: setupCommand.trim() }),
      ...(allowance.trim() && { allowance: Number(allowance.replaceAll(",", "").replaceAll("_", "")) }),
      ...(draft && inspection.data?.remote && { draftPullRequest: true }),
    };
    setSent(fieldsNow);
    start.mutate(input);
  };

  // The server's refusal by field: a 400 naming no field is about the repository (inspectRepository's reasons).
  const refusal = start.error;
  const issues = Array.isArray(refusal?.body.issues) ? (refusal.body.issues as { path: (string | number)[]; message: string }[]) : [];
  // The value each field held when it was sent, against what it holds now.
  const unchanged = (field: string) => sent !== null && sent[field] === fieldsNow[field];
  const fieldRefusal = (field: string) => (unchanged(field) ? issues.find((i) => i.path[0] === field)?.message : undefined);
  const repoRefusal = refusal?.status === 400 && issues.length === 0 ? (unchanged("repo") ? refusal.message : undefined) : fieldRefusal("repo");
  const otherRefusal =
    refusal && !(refusal.status === 400 && (issues.length === 0 || issues.every((i) => ["repo", "goal", "testCommand", "setupCommand", "allowance"].includes(String(i.path[0])))));

  const repoNote = problems.repo ?? repoRefusal ?? (looked && looked === repo.trim() && inspection.error ? inspection.error.message : null);
  // What the folder check said is shown only for the path the field holds now, never for one typed before it.
  const lookedNow = looked === repo.trim() ? inspection.data : undefined;
  const repoHint = lookedNow
    ? lookedNow.remote
      ? `Starts from ${lookedNow.branch ?? "its default branch"} at ${lookedNow.head.slice(0, 7)} of ${lookedNow.remote}, fetched into Quorum's own clone; the flight's branch is pushed back there.`
      : `Starts from ${lookedNow.branch ?? "a detached HEAD"} at ${lookedNow.head.slice(0, 7)} in ${lookedNow.path}; your checkout is never touched.`
    : "The absolute path of a git repository on the machine Quorum runs on, or its https URL (its forge's token goes in Settings → Forges).";
  const testHint = inspection.data
    ? detected
      ? testCommand.trim() === detected
        ? `Detected from the repository: ${detected}.`
        : `Detected: ${detected}; yours is used instead.`
      : "Not detected: give the command that runs the tests."
    : "Detected from the repository once its folder is found; you can change it.";
  const noTeamNote = "new-flight-no-team";

  return (
    <Modal title="New flight" open={open} onClose={close}>
      <NoLiveTeam mode={team.data?.mode} id={noTeamNote} />
      <form onSubmit={onValidSubmit(validate, submit)} noValidate aria-describedby={canFly ? undefined : noTeamNote}>
        <Field label="Repository folder or URL" hint={repoHint} error={repoNote}>
          {(control) => (
            <input
              {...control}
              ref={pathField}
              value={repo}
              onChange={(e) => {
                setRepo(e.target.value);
                touch("repo");
              }}
              className={`${inputClass} font-mono`}
              name="repo"
              placeholder="/home/you/src/my-app or https://github.com/you/app.git"
              autoComplete="off"
              spellCheck={false}
            />
          )}
        </Field>
        <Field label="Goal" hint="What the team should achieve; the orchestrator plans tasks from it." error={problems.goal ?? fieldRefusal("goal")}>
          {(control) => (
            <textarea
              {...control}
              value={goal}
              onChange={(e) => {
                setGoal(e.target.value);
                touch("goal");
              }}
              rows={3}
              className={inputClass}
              name="goal"
              maxLength={4000}
            />
          )}
        </Field>
        <div className="grid gap-x-3 sm:grid-cols-[minmax(0,1fr)_11rem]">
          <Field label="Test command" hint={testHint} error={fieldRefusal("testCommand")}>
            {(control) => (
              <input
                {...control}
                value={testCommand}
                onChange={(e) => {
                  setTestCommand(e.target.value);
                  setTestEdited(true);
                }}
                className={`${inputClass} font-mono`}
                name="testCommand"
                placeholder={inspection.isFetching ? "looking…" : "npm test"}
                autoComplete="off"
                spellCheck={false}
              />
            )}
          </Field>
          <Field
            label="Allowance (tokens)"
            hint={defaultAllowance ? `Empty: the default, ${defaultAllowance.toLocaleString("en-US")}.` : "Empty: the default."}
            error={problems.allowance ?? fieldRefusal("allowance")}
          >
            {(control) => (
              <input
                {...control}
                value={allowance}
                onChange={(e) => {
                  setAllowance(e.target.value);
                  touch("allowance");
                }}
                inputMode="numeric"
                className={`${inputClass} tabular-nums`}
                name="allowance"
                placeholder={defaultAllowance?.toLocaleString("en-US") ?? ""}
              />
            )}
          </Field>
        </div>
        <Field label="Setup command" hint={setupHint(inspection.data, setupCommand, setupEdited)} error={fieldRefusal("setupCommand")}>
          {(control) => (
            <input
              {...control}
              value={setupCommand}
              onChange={(e) => {
                setSetupCommand(e.target.value);
                setSetupEdited(true);
              }}
              className={`${inputClass} font-mono`}
              name="setupCommand"
              placeholder={inspection.isFetching ? "looking…" : "none"}
              autoComplete="off"
              spellCheck={false}
            />
          )}
        </Field>
        {lookedNow?.remote && (
          <div className="text-sm">
            <label className="flex items-start gap-2">
              <input
                type="checkbox"
                checked={draft}
                onChange={(e) => setDraft(e.target.checked)}
                className="mt-1"
                name="draftPullRequest"
                aria-describedby="draft-pull-request-hint"
              />
              Open a draft pull request as soon as the tests pass
            </label>
            <p id="draft-pull-request-hint" className="ml-6 text-xs text-neutral-600 dark:text-neutral-300">
              Otherwise the pull request opens once you approve the work; a draft is marked ready for review then.
            </p>
          </div>
        )}
        {otherRefusal && <ServerError error={refusal} />}
        <FormButtons busy={start.isPending} disabled={!canFly} label="Start flight" onCancel={close} />
      </form>
    </Modal>
  );
}
