// A session is one client connection: the stdio process's single client, or
// one Streamable HTTP session. Runs belong to the session that started them.
import { randomUUID } from "node:crypto";

export interface Session {
  readonly id: string;
  /**
   * True for the one session all 2026-07-28 callers share (src/http/modern.ts):
   * there a run belongs to whoever holds its id, so listing the session's runs
   * (as MCP resources) would hand every caller everyone's run ids.
   */
  readonly runsUnlisted?: boolean;
}

export function newSession(id: string = randomUUID(), options: { runsUnlisted?: boolean } = {}): Session {
  return options.runsUnlisted ? { id, runsUnlisted: true } : { id };
}
