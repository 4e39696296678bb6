// Turning a model's answer into what the editor shows: cut at the first stop sequence (servers that
// accept only four stops, like OpenAI's, get the rest enforced here), strip markdown fences a chat
// model may add, and drop the tail that only repeats the code after the cursor.

export function cutAtStop(text: string, stops: readonly string[]): { text: string; stopped: boolean } {
  let end = text.length;
  for (const s of stops) {
    const at = text.indexOf(s);
    if (at >= 0 && at < end) end = at;
  }
  return { text: text.slice(0, end), stopped: end < text.length };
}

/** Drops a closing markdown fence a chat model adds (the client already dropped the opening one). */
export function stripFences(text: string): string {
  return text.replace(/\n?```\s*$/, '');
}

/**
 * Removes what the suffix already holds: whole trailing lines equal to the suffix's first lines
 * (a model closing a block that is already closed), then, on the cursor's line, the longest end of
 * the completion that the rest of the line starts with (`foo(a, b)` before an existing `)`).
 */
export function trimSuffixOverlap(completion: string, suffix: string): string {
  let lines = completion.split('\n');
  const suffixLines = suffix.split('\n');
  const restOfLine = suffixLines[0];
  const following = suffixLines.slice(restOfLine.trim() === '' ? 1 : 0).filter((l) => l.trim() !== '');
  if (lines.length > 1 && following.length > 0) {
    for (let n = Math.min(lines.length - 1, following.length); n > 0; n--) {
      const tail = lines.slice(-n).filter((l) => l.trim() !== '');
      const head = following.slice(0, tail.length);
      if (tail.length > 0 && tail.length === head.length && tail.every((l, i) => l.trim() === head[i].trim())) {
        let cut = lines.length - n;
        while (cut > 0 && lines[cut - 1].trim() === '') cut--;
        lines = lines.slice(0, cut);
        break;
      }
    }
  }
  let out = lines.join('\n');
  const rest = restOfLine.trimEnd();
  if (rest !== '' && !out.includes('\n')) {
    for (let k = Math.min(rest.length, out.length); k > 0; k--) {
      if (out.endsWith(rest.slice(0, k))) {
        out = out.slice(0, out.length - k);
        break;
      }
    }
  }
  return out.replace(/\s+$/, "");
}
