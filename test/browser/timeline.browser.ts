// The page `stepgate --show --html` writes, opened from file:// in a real
// headless Chromium: the verdicts come first, the run list links to each
// run, failing gates are red, bars are to scale, and the page asks for
// nothing from anywhere. Saves a screenshot (STEPGATE_SCREENSHOT names where;
// docs/ledger-timeline.png is made this way).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import puppeteer, { type Browser, type Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stepgateBin } from "../support/paths.js";
import { makeRealRuns, RUN_KINDS, type RealRuns } from "../ledger/real-runs.js";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const dir = mkdtempSync(join(tmpdir(), "stepgate-browser-"));
let runs: RealRuns;
let browser: Browser;
let page: Page;
const requested: string[] = [];
let tampered: string;
/** Each run's article, in the order the files were given (RUN_KINDS, then the tampered copy). */
const article = (kind: (typeof RUN_KINDS)[number]) => `#run-${RUN_KINDS.indexOf(kind) + 1}`;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH)`);
  const keys = join(dir, "keys");
  expect(spawnSync(process.execPath, [stepgateBin(), "--keygen", keys]).status).toBe(0);
  runs = await makeRealRuns(["--signing-key", join(keys, "stepgate-ledger.key")]);
  // One copy with an edited record, so the page shows a verdict that fails.
  tampered = join(dir, "greet-tampered.jsonl");
  const lines = readFileSync(runs.ledgers.failed, "utf8").split("\n");
  lines[2] = lines[2]!.replace(/"output_length":\d+/, '"output_length":1');
  writeFileSync(tampered, lines.join("\n"));
  const html = join(dir, "runs.html");
  const files = [...RUN_KINDS.map((k) => runs.ledgers[k]), tampered];
  const made = spawnSync(process.execPath, [stepgateBin(), "--show", "--html", html, ...files], { encoding: "utf8" });
  expect(made.status, made.stderr).toBe(0);
  browser = await puppeteer.launch({ executablePath: CHROMIUM, headless: true, args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"] });
  page = await browser.newPage();
  page.on("request", (request) => void requested.push(request.url()));
  await page.setViewport({ width: 1200, height: 900 });
  await page.goto(pathToFileURL(html).href, { waitUntil: "load" });
});

afterAll(async () => {
  await browser?.close();
});

describe("the timeline page in Chromium", () => {
  it("loads from file:// and asks for nothing else", () => {
    expect(requested.length).toBeGreaterThan(0);
    expect(requested.filter((url) => !url.startsWith("file://"))).toEqual([]);
  });

  it("puts the verdict first: a summary that names the failure, and each run's verdict above its timeline", async () => {
    const summary = await page.$eval(".summary", (el) => ({ text: el.textContent, pass: el.getAttribute("data-summary"), top: el.getBoundingClientRect().top }));
    expect(summary.pass).toBe("fail");
    expect(summary.text).toContain("1 of 7 ledgers did not verify");
    expect(summary.text).toContain("6 intact and signed");
    expect(await page.$eval(article("failed"), (el) => el.getAttribute("data-run"))).toBe(runs.runIds.failed);
    const firsts = await page.$$eval("article.run", (els) => els.map((el) => el.firstElementChild?.className));
    expect(firsts).toHaveLength(7);
    expect(firsts.every((c) => c?.startsWith("verdict"))).toBe(true);
    const last = await page.$eval("article.run:last-of-type .verdict", (el) => ({ text: el.textContent, status: el.getAttribute("data-verdict") }));
    expect(last.status).toBe("tampered");
    expect(last.text).toContain("tampered at record 3");
  });

  it("lists every run with a link that leads to it", async () => {
    const links = await page.$$eval("[data-run-list] a", (els) => els.map((a) => a.getAttribute("href")));
    expect(links).toHaveLength(7);
    await page.click(`[data-run-list] a[href="${links[3]}"]`);
    const target = await page.$eval(links[3]!, (el) => el.getBoundingClientRect().top);
    expect(Math.abs(target)).toBeLessThan(5);
    await page.evaluate("window.scrollTo(0, 0)");
  });

  it("marks failing gates in red, in the timeline and in the details", async () => {
    const marks = await page.$$eval(`${article("failed")} .gate.failing`, (els) => els.map((el) => el.ownerDocument.defaultView!.getComputedStyle(el).backgroundColor));
    expect(marks).toEqual(["rgb(198, 40, 40)", "rgb(198, 40, 40)"]);
    const listed = await page.$$eval(`${article("failed")} [data-failing-gate]`, (els) => els.map((el) => [el.getAttribute("data-failing-gate"), el.ownerDocument.defaultView!.getComputedStyle(el).color]));
    expect(listed).toEqual([["names-them", "rgb(198, 40, 40)"], ["names-them", "rgb(198, 40, 40)"]]);
    const passing = await page.$$eval(`${article("agent")} .gate:not(.failing)`, (els) => els.map((el) => el.ownerDocument.defaultView!.getComputedStyle(el).backgroundColor));
    expect(passing.length).toBeGreaterThan(0);
    expect(passing.every((c) => c === "rgb(46, 125, 50)")).toBe(true);
  });

  it("draws durations to scale: a call's bar is its share of the run's time", async () => {
    const measured = await page.$eval(`${article("retries")}`, (article) => {
      const total = Number(article.querySelector(".timeline")!.getAttribute("data-total-ms"));
      const track = article.querySelector(".track")!.getBoundingClientRect();
      const call = article.querySelector(".call")!;
      return { total, trackWidth: track.width, width: call.getBoundingClientRect().width, title: call.getAttribute("title") };
    });
    const duration = Number(/, (\d+) ms, by/.exec(measured.title ?? "")?.[1]);
    expect(duration).toBeGreaterThan(0);
    expect(measured.width / measured.trackWidth).toBeCloseTo(duration / measured.total, 1);
  });

  it("saves a screenshot", async () => {
    const out = resolve(process.env.STEPGATE_SCREENSHOT ?? join(dir, "timeline.png"));
    mkdirSync(dirname(out), { recursive: true });
    await page.screenshot({ path: out as `${string}.png`, fullPage: false });
    expect(readFileSync(out).subarray(1, 4).toString()).toBe("PNG");
    process.stdout.write(`screenshot: ${out}\n`);
  });
});
