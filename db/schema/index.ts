// Every table of Quorum; drizzle-kit reads this file to generate migrations.
export * from "./principals";
export * from "./rooms";
export * from "./events";
