// What the hub tells a person when a run fails (the Room's notice, domain/flights/hand-back.ts): each client
// words it from its own setup, by the failure's shape, naming the variable to check.
import { describe, expect, it } from "vitest";
import { anthropicClient } from "./anthropic";
import { openAiCompatibleClient } from "./openai-compatible";
import { scriptedClient } from "./scripted";

const tools = "choose a model that calls tools (`quorum model check`), or run the flight scripted";
const overloaded = "the server is overloaded or failing: retry later, or run the flight scripted";

describe("a model client's advice on a failed run", () => {
  it("names the chat-completions server's variables for an OpenAI-compatible client", () => {
    const client = openAiCompatibleClient({ baseUrl: "http://127.0.0.1:8000/v1", model: "m" });
    expect(client.adviceFor("openai-compatible:m: HTTP 401 Unauthorized")).toBe("check QUORUM_OPENAI_API_KEY");
    expect(client.adviceFor("HTTP 403")).toBe("check QUORUM_OPENAI_API_KEY");
    expect(client.adviceFor("HTTP 404 model not found")).toBe("check QUORUM_MODEL (the server does not know that model) and QUORUM_OPENAI_BASE_URL");
    expect(client.adviceFor("cannot reach http://127.0.0.1:8000/v1")).toBe("check that the server at QUORUM_OPENAI_BASE_URL is up (`quorum model check`)");
    expect(client.adviceFor("no response within 120000 ms")).toBe("check that the server at QUORUM_OPENAI_BASE_URL is up (`quorum model check`)");
    expect(client.adviceFor("HTTP 503 after 5 tries")).toBe(overloaded);
    expect(client.adviceFor("HTTP 429")).toBe(overloaded);
    expect(client.adviceFor("the chat completion is not JSON")).toBe("the server at QUORUM_OPENAI_BASE_URL does not speak the chat-completions wire format");
    expect(client.adviceFor("it answered in prose twice")).toBe(tools);
    expect(client.setup).toMatchObject({ keyVariable: "QUORUM_OPENAI_API_KEY", baseUrlVariable: "QUORUM_OPENAI_BASE_URL", baseUrl: "http://127.0.0.1:8000/v1" });
  });

  it("names the messages server's variables for an Anthropic client", () => {
    const client = anthropicClient({ apiKey: "k", model: "c" });
    expect(client.adviceFor("HTTP 401")).toBe("check QUORUM_ANTHROPIC_API_KEY");
    expect(client.adviceFor("HTTP 404")).toBe("check QUORUM_MODEL (the server does not know that model) and QUORUM_ANTHROPIC_BASE_URL");
    expect(client.adviceFor("cannot reach the server")).toBe("check that the server at QUORUM_ANTHROPIC_BASE_URL is up (`quorum model check`)");
    expect(client.adviceFor("HTTP 529 overloaded")).toBe(overloaded);
    expect(client.adviceFor("a malformed message")).toBe("the server at QUORUM_ANTHROPIC_BASE_URL does not speak the messages wire format");
    expect(client.adviceFor("it used all its turns (12) without finishing")).toBe(tools);
    expect(client.setup?.baseUrl).toBe("https://api.anthropic.com");
  });

  it("names no variable for the scripted client, which none configures", () => {
    const client = scriptedClient([]);
    expect(client.setup).toBeNull();
    expect(client.adviceFor("HTTP 500")).toBe(overloaded);
    expect(client.adviceFor("HTTP 401")).toBe(tools);
    expect(client.adviceFor("the run ended without a verdict")).toBe(tools);
  });
});
