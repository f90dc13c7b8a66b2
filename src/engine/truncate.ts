// Tool results longer than --tool-result-chars are cut, with a note the
// model can see, so it knows it holds only part of the result.

export function truncateForClient(text: string, limit: number): string {
  const chars = Array.from(text);
  if (chars.length <= limit) return text;
  return `${chars.slice(0, limit).join("")}\n[truncated: showed ${limit} of ${chars.length} characters]`;
}
