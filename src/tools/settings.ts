// Preflight step 1: every setting from the environment, checked against its
// pattern (default: one DNS label), then filled into tool URLs and
// credential hosts.
import { PreflightFailed, SettingUnavailable } from "../errors.js";
import { compileRegex } from "../expr/index.js";
import type { SettingDef } from "../format/types.js";
import { SETTING_REF } from "../format/urls.js";

const DNS_LABEL = "[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?";

export function settingVariable(name: string): string {
  return name.toUpperCase().replaceAll("-", "_");
}

export function readSettings(settings: Record<string, SettingDef>, env: Record<string, string | undefined>): Map<string, string> {
  const values = new Map<string, string>();
  for (const [name, def] of Object.entries(settings)) {
    const variable = settingVariable(name);
    const value = env[variable];
    if (value === undefined || value === "") throw asPreflight(name, new SettingUnavailable(name, variable));
    const pattern = compileRegex(`^(?:${def.pattern ?? DNS_LABEL})$`);
    if (!pattern.matches(value)) throw asPreflight(name, new SettingUnavailable(name, variable, `does not match its pattern ${def.pattern ?? "(one DNS label)"}`));
    values.set(name, value);
  }
  return values;
}

export function fillSettings(text: string, values: ReadonlyMap<string, string>): string {
  return text.replace(SETTING_REF, (whole, name: string) => values.get(name) ?? whole);
}

function asPreflight(name: string, error: SettingUnavailable): PreflightFailed {
  return new PreflightFailed(`setting ${name}`, error.message);
}
