import { TaskPage } from "@/components/board/task-page";

export default async function BoardTaskPage({ params }: { params: Promise<{ number: string }> }) {
  const { number } = await params;
  return <TaskPage number={number} />;
}
