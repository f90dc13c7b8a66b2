// `stepgate --from-arazzo <file> [--workflow <id>] --out <dir>
// [--source <name>=<file>] [--server <name>=<url>]` (docs/arazzo.md): write
// one `<workflowId>.stepfile.yaml` per workflow that converts, each loaded
// first with the stepfile loader, so a file is written only if stepgate
// would serve it. Each refusal is printed naming the workflow, the step and
// the construct. Exit 0 when every chosen workflow converted, 1 when any was
// refused (the others are still written), 2 when the document cannot be
// read or a workflow named with --workflow does not exist.
import { mkdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import { StepfileInvalid, StepgateError, formatIssue } from "../errors.js";
import { readBounded } from "../format/read-bounded.js";
import { loadStepfileText } from "../loader/load.js";
import { convertDocument, UnknownWorkflow } from "../arazzo/convert.js";
import { readArazzo } from "../arazzo/document.js";
import { remoteSourceFetcher } from "../arazzo/fetch-source.js";
import { refusalIssues } from "../arazzo/served-document.js";
import { schemaPathFrom, stepfileText } from "../arazzo/write.js";
import { userAgent } from "../egress/user-agent.js";
import type { Options } from "./options.js";
import { packageRoot, packageVersion } from "./package-root.js";
import { fsProblem, writeWholeFile } from "../whole-file.js";

export async function fromArazzo(options: Options, out: (line: string) => void, err: (line: string) => void): Promise<number> {
  const { file, workflow, out: outDir } = options.arazzo as { file: string; workflow?: string; out: string };
  if (options.positionals.length > 0) {
    err(`stepgate: --from-arazzo converts one document; ${options.positionals.join(" ")} is not an option it takes (see stepgate --help)`);
    return 2;
  }
  let text: string;
  try {
    const read = await readBounded(file, options.maxStepfileBytes);
    if ("tooLarge" in read) {
      err(`stepgate: ${file} ${read.tooLarge}`);
      return 2;
    }
    text = read.text;
  } catch (error) {
    err(`StepfileUnreadable: ${file} could not be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    return 2;
  }
  let conversion;
  try {
    const doc = readArazzo(text, file);
    for (const note of doc.notes) err(`stepgate: ${file}: note: ${note.message}`);
    conversion = await convertDocument(doc, {
      documentPath: file,
      localCopies: options.arazzo.sources,
      servers: options.arazzo.servers,
      fetchRemote: remoteSourceFetcher({ userAgent: userAgent(packageVersion(), options.contact), timeoutMs: options.limits.requestTimeoutMs, maxBytes: options.limits.responseBytes, allowPrivateHosts: options.allowPrivateHosts }),
      ...(workflow !== undefined ? { workflowId: workflow } : {}),
    });
  } catch (error) {
    if (error instanceof StepfileInvalid) {
      err(`StepfileInvalid: ${file} is not an Arazzo document stepgate can read:\n${error.issues.map((i) => `  ${formatIssue(i, file)}`).join("\n")}`);
      return 2;
    }
    if (error instanceof UnknownWorkflow) {
      err(`stepgate: ${file}: ${error.message}`);
      return 2;
    }
    throw error;
  }
  await mkdir(outDir, { recursive: true });
  const schema = schemaPathFrom(resolve(outDir), join(packageRoot(), "schema", "stepfile.schema.json"));
  let failed = conversion.refused.length > 0;
  for (const issue of refusalIssues(conversion, text, file)) err(`stepgate: ${file}${issue.line !== undefined ? `:${issue.line}:${issue.column ?? 1}` : ""}: ${issue.message}`);
  for (const { workflowId, stepfile } of conversion.converted) {
    const target = join(outDir, `${workflowId}.stepfile.yaml`);
    const written = stepfileText(stepfile, schema);
    try {
      loadStepfileText(written, target);
    } catch (error) {
      // A conversion the loader refuses is Stepgate's defect: say so rather than write a file that will not serve.
      failed = true;
      err(`stepgate: workflow ${workflowId} converted to a stepfile the loader refuses (a Stepgate defect; please report it): ${error instanceof StepgateError ? error.message : String(error)}`);
      continue;
    }
    try {
      // Whole or not at all: a full disk leaves no half stepfile in --out (src/whole-file.ts).
      writeWholeFile(target, written);
    } catch (error) {
      err(`stepgate: could not write ${target} (${fsProblem(error)}); nothing was written there`);
      return 1;
    }
    out(`wrote ${target} (workflow ${workflowId})`);
  }
  return failed ? 1 : 0;
}
