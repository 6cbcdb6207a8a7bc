import type { Metadata } from "next";
import { TaskPage } from "@/components/board/task-page";

type Params = { params: Promise<{ number: string }> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  return { title: `#${(await params).number} · Board` };
}

export default async function BoardTaskPage({ params }: Params) {
  const { number } = await params;
  return <TaskPage number={number} />;
}
