// The opening a stdio client sends before anything else (initialize,
// notifications/initialized, tools/list), as newline-delimited JSON, for
// tests that write it to the built CLI's standard input themselves.
export function stdioOpening(clientName: string): string {
  return [
    { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: clientName, version: "1" } } },
    { jsonrpc: "2.0", method: "notifications/initialized" },
    { jsonrpc: "2.0", id: 2, method: "tools/list" },
  ]
    .map((m) => `${JSON.stringify(m)}\n`)
    .join("");
}
