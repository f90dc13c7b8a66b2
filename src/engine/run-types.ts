// The types a run's state and its evidence are made of, apart from run.ts so
// the modules run.ts uses (the observer, through the context) can name them
// without importing run.ts back: src/engine/ has no import circle.

export type RunState = "running" | "finished" | "failed" | "abandoned";

/** One call as gates see it. */
export interface Evidence {
  tool: string;
  arguments: unknown;
  result: unknown;
  is_error: boolean;
}
