// `npm run test:browser`: the HTML timeline rendered by a real headless
// Chromium (Debian's `chromium` package, driven by puppeteer-core, which
// downloads no browser). Opt-in because it needs that package installed.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/browser/**/*.browser.ts"],
    testTimeout: 180_000,
    hookTimeout: 240_000,
    pool: "forks",
  },
});
