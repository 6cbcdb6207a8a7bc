// The building blocks every view is made of, and the few views that belong to no institution. The
// primitives live in one module so that every view shares the same instances of them.
import { z } from "zod";

export const open = <S extends z.ZodRawShape>(shape: S) => z.looseObject(shape);
export const uuid = z.string();
export const when = z.string();
export const kind = z.enum(["human", "agent", "system"]);
export const int = z.number().int();

/** A cursor page: `next` is the cursor of the following page, when there is one. */
export const page = <S extends z.ZodType>(item: S) => open({ items: z.array(item), next: int.optional() });

export const health = open({ ok: z.literal(true) });

/** A view this document does not spell out yet: a JSON object (the explorer and bill pages' reads). */
export const anyObject = open({});
