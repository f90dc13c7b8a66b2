// TODO markers: strings containing "TODO:", which stepgate_outline leaves
// where only the author can decide. Found in the parsed document, so each
// comes with its path and, through the source, its line and column.
import { pathString, type ParsedSource, type PathSegment } from "../format/source.js";

export interface TodoMarker {
  path: string;
  text: string;
  line?: number;
  column?: number;
}

const MARKER = /\bTODO:/;

export function todoMarkers(parsed: ParsedSource): TodoMarker[] {
  const found: TodoMarker[] = [];
  const walk = (value: unknown, path: PathSegment[]) => {
    if (typeof value === "string") {
      if (!MARKER.test(value)) return;
      const at = parsed.locate(path);
      found.push({ path: pathString(path), text: value.trim(), ...(at ? { line: at.line, column: at.column } : {}) });
    } else if (Array.isArray(value)) value.forEach((item, i) => walk(item, [...path, i]));
    else if (value && typeof value === "object") for (const [key, item] of Object.entries(value)) walk(item, [...path, key]);
  };
  walk(parsed.data, []);
  return found;
}
