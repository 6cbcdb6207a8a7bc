// Where a flight task's work lives in git: its own branch, named after the task (the team's worktrees and
// the review's diff agree on this one name).
export function branchOf(taskId: string): string {
  return `task/${taskId}`;
}
