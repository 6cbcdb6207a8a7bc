// Forge hosts as humans see them in Settings: everything but the token, of which only its last 4 characters.
import { z } from "zod";
import { FORGE_KINDS, type ForgeHostView } from "@/domain/forges/hosts";
import { open, uuid, when } from "./base";

export const forgeHost = open({
  id: uuid,
  host: z.string(),
  kind: z.enum(FORGE_KINDS),
  apiUrl: z.string(),
  tokenEnding: z.string().describe("the token's last 4 characters, to tell tokens apart; the token itself is never answered"),
  createdByName: z.string(),
  createdAt: when,
}) satisfies z.ZodType<ForgeHostView>;
export const forgeHostList = open({ items: z.array(forgeHost) });
