// A page's read that the server refuses says so at once; one that could not reach it tries again.
import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { ApiError, retryable } from "./api";

async function attemptsUntilSettled(fail: () => Error): Promise<number> {
  const client = new QueryClient({ defaultOptions: { queries: { retry: retryable, retryDelay: 0 } } });
  let attempts = 0;
  await client
    .fetchQuery({
      queryKey: ["read"],
      retry: retryable,
      queryFn: async () => {
        attempts++;
        throw fail();
      },
    })
    .catch(() => undefined);
  return attempts;
}

describe("retryable", () => {
  it("asks once when the server answers 404: an archived run is named without waiting out retries", async () => {
    expect(await attemptsUntilSettled(() => new ApiError(404, { message: "run r's events are archived" }))).toBe(1);
    expect(await attemptsUntilSettled(() => new ApiError(403, { message: "not yours" }))).toBe(1);
  });

  it("asks four times in all when the server failed or could not be reached", async () => {
    expect(await attemptsUntilSettled(() => new ApiError(503, { message: "starting" }))).toBe(4);
    expect(await attemptsUntilSettled(() => new TypeError("fetch failed"))).toBe(4);
  });
});
