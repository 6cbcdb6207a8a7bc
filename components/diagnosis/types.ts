// What a diagnosis is as the browser receives it: the server's own view types (type-only imports).
export type { DiagnosisView } from "@/server/diagnosis/scope";
export type { Finding } from "@/server/diagnosis/finding";
export type { DiagnosisAlert } from "@/server/diagnosis/alerts";
