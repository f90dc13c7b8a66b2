// A session is one client connection: the stdio process's single client, or
// one Streamable HTTP session. Runs belong to the session that started them.
import { randomUUID } from "node:crypto";

export interface Session {
  readonly id: string;
}

export function newSession(id: string = randomUUID()): Session {
  return { id };
}
