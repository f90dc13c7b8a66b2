import { loadStepfileText } from "../src/loader/load.js";
const text = `stepgate: "1"\n${"k".repeat(3_000_000)}: 1\n`;
for (let i = 0; i < 3; i++) {
  const t = performance.now();
  try { loadStepfileText(text, "fuzz.stepfile.yaml"); } catch (e) { if (i === 0) console.log((e as Error).message.slice(0, 300)); }
  console.log("took", Math.round(performance.now() - t), "ms");
}
