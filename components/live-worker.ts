// The shared worker that holds the browser's one stream for all its Quorum tabs. A browser allows six
// connections per host over plain HTTP/1.1 and the server eight streams per principal: a stream per tab
// ran out of both at the seventh tab. Each tab connects a port and says "bye" when it leaves; the stream
// closes when no tab listens (the browser ends the worker itself once its last tab is gone).
import { type LiveFrame, type LiveSource, openLiveSource } from "./live-source";

/** What a tab sends: "bye" when it leaves the page or signs out. */
export type TabMessage = "bye";

interface SharedWorkerScope {
  onconnect: ((event: MessageEvent) => void) | null;
}

const scope = globalThis as unknown as SharedWorkerScope;
const tabs = new Set<MessagePort>();
let source: LiveSource | undefined;

function toEveryTab(frame: LiveFrame): void {
  for (const tab of tabs) tab.postMessage(frame);
}

scope.onconnect = (event) => {
  const tab = event.ports[0];
  tabs.add(tab);
  source ??= openLiveSource(toEveryTab);
  tab.postMessage({ type: "status", status: source.status() } satisfies LiveFrame);
  tab.onmessage = (message: MessageEvent<TabMessage>) => {
    if (message.data !== "bye") return;
    tabs.delete(tab);
    tab.close();
    if (tabs.size > 0) return;
    source?.close();
    source = undefined;
  };
};
