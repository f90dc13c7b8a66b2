// Arazzo ids (workflowId, stepId, source names: `[A-Za-z0-9_\-]+` by the
// specification's recommendation) as stepfile identifiers, which are
// `^[a-z][a-z0-9-]*$` and at most 64 characters (format section 1):
// camelCase and snake_case become kebab-case, and a clash gets a number.

export function kebab(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1-$2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  let id = words.join("-");
  if (!/^[a-z]/.test(id)) id = `x-${id}`;
  return id.slice(0, 64).replace(/-+$/, "") || "x";
}

/** Hands out identifiers unique within one stepfile. */
export class IdPool {
  private readonly used = new Set<string>();
  take(name: string): string {
    const base = kebab(name);
    let id = base;
    for (let n = 2; this.used.has(id); n++) id = `${base.slice(0, 60)}-${n}`;
    this.used.add(id);
    return id;
  }
}
