// Lessons and principles as the browser receives them: domain/memory's own view types (type-only).
export type { LessonView as Lesson, PrincipleView as Principle } from "@/domain/memory/memory-view";
