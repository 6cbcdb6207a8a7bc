// Every table of Quorum; drizzle-kit reads this file to generate migrations.
export * from "./principals";
export * from "./rooms";
export * from "./events";
export * from "./archives";
export * from "./relay";
export * from "./tasks";
export * from "./decisions";
export * from "./commitments";
export * from "./memory";
export * from "./budgets";
export * from "./flights";
export * from "./bill";
export * from "./reservations";
export * from "./webhooks";
export * from "./diagnosis";
export * from "./forges";
