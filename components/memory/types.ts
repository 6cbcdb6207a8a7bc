// Lessons and principles as the browser receives them: server/memory's own view types (type-only).
export type { LessonView as Lesson, PrincipleView as Principle } from "@/server/memory/memory-view";
