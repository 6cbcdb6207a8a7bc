// Before each test file: a fresh database cloned from the migrated template, as DATABASE_URL.
import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { afterAll, inject } from "vitest";
import { getConnection } from "../db/client";

const adminUrl = inject("adminUrl");
const templateName = inject("templateName");
const name = `quorum_t_${templateName.split("_").at(-1)}_${randomBytes(5).toString("hex")}`;

const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
for (let attempt = 0; ; attempt++) {
  try {
    await admin.unsafe(`create database ${name} template ${templateName}`);
    break;
  } catch (error) {
    // Two clones of one template at the same instant can collide; try again shortly.
    if (attempt >= 20) throw error;
    await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
  }
}
await admin.end();

const url = new URL(adminUrl);
url.pathname = `/${name}`;
process.env.DATABASE_URL = url.toString();

afterAll(async () => {
  await getConnection().close();
});
