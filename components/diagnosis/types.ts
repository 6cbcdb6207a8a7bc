// What a diagnosis is as the browser receives it: the server's own view types (type-only imports).
export type { DiagnosisView } from "@/domain/diagnosis/scope";
export type { Finding } from "@/domain/diagnosis/finding";
export type { DiagnosisAlert } from "@/domain/diagnosis/alerts";
