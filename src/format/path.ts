// Paths of issues inside expressions come as text (`["=="][0].var`); the
// loader needs segments to find their line.
import type { PathSegment } from "./source.js";

/** A JSON Pointer (ajv's `instancePath`) as segments; numeric segments become array indexes. */
export function pointerPath(pointer: string): PathSegment[] {
  return pointer
    .split("/")
    .slice(1)
    .map((s) => s.replaceAll("~1", "/").replaceAll("~0", "~"))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

export function parsePath(text: string): PathSegment[] {
  const segments: PathSegment[] = [];
  const token = /\.([^.[\]]+)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/gy;
  let m: RegExpExecArray | null;
  while ((m = token.exec(text)) !== null) {
    if (m[1] !== undefined) segments.push(m[1]);
    else if (m[2] !== undefined) segments.push(Number(m[2]));
    else segments.push(JSON.parse(m[3]!) as string);
    if (token.lastIndex === text.length) break;
  }
  return segments;
}
