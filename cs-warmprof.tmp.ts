import { readFileSync } from "node:fs";
import { execSync } from "node:child_process";
import { loadStepfileText } from "./src/loader/load.ts";
const files = execSync("find awesome-stepfiles -name '*.stepfile.*' | sort", { encoding: "utf8" }).trim().split("\n");
const texts = files.map((f) => readFileSync(f, "utf8"));
for (let r = 0; r < 30; r++) for (const t of texts) loadStepfileText(t, "x");
