// Preflight and the run's tools. Remote tools (OpenAPI, MCP, verifiers) plug
// in here; a stepfile without tools needs only its inputs checked.
import { PreflightFailed } from "../errors.js";
import type { LedgerChain } from "../ledger/chain.js";
import type { LoadedStepfile } from "../loader/load.js";
import { emptyToolbox, type Toolbox } from "../engine/toolbox.js";
import type { Limits } from "../cli/options.js";

export interface ToolboxOptions {
  limits: Limits;
  contact?: string | undefined;
  env: Record<string, string | undefined>;
  version: string;
}

export async function openToolbox(stepfile: LoadedStepfile, _ledger: LedgerChain, checkInputs: () => void, _options: ToolboxOptions): Promise<Toolbox> {
  checkInputs();
  const tools = Object.keys(stepfile.doc.tools ?? {});
  if (tools.length > 0) throw new PreflightFailed(`tool ${tools[0]}`, "remote tools are not available in this version yet");
  return emptyToolbox;
}
