// Paths of issues inside expressions come as text (`["=="][0].var`); the
// loader needs segments to find their line.
import type { PathSegment } from "./source.js";

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
