// `log`: returns its argument and writes nothing. stdout is the MCP stdio
// channel and stderr may carry the ledger, so a rule must not print anywhere.
import { eager } from "../operator.js";

export const log = eager(([value]) => value);
