// Keys typed into the editor after the picker's chord but before its box took the focus (no `vscode`:
// unit-tested). An extension's picker shows after a round trip to the extension host, and on a busy
// machine that takes long enough for a quick typist's first letters to land in the code. The edits
// the editor reports in that time are recognised here as such keys only when they are exactly that:
// one character each, no line break, each right after the previous one, the first replacing what was
// selected. Anything else (an auto-closed bracket, a paste, a formatter, another cursor) means the
// edits are not understood: they are left alone, and nothing is taken into the picker.

/** One edit as the editor reports it: where it starts (offset), how much it replaced, what it wrote. */
export interface Edit {
  offset: number;
  length: number;
  text: string;
}

export class EarlyKeys {
  private typed = '';
  private understood = true;

  /** `start`: the offset of the cursor (or of the selection's start); `selected`: the selection's length. */
  constructor(
    private readonly start: number,
    private readonly selected: number,
  ) {}

  /** An editor change in the document; false once the changes are not (or no longer) plain keys. */
  add(edits: readonly Edit[]): boolean {
    if (!this.understood) return false;
    const [edit] = edits;
    const key = edits.length === 1 && edit.text.length === 1 && !/[\r\n]/.test(edit.text)
      && edit.offset === this.start + this.typed.length && edit.length === (this.typed ? 0 : this.selected);
    if (!key) {
      this.understood = false;
      return false;
    }
    this.typed += edit.text;
    return true;
  }

  /** The keys typed, in order ('' when there were none, or the edits were not all keys). */
  get text(): string {
    return this.understood ? this.typed : '';
  }

  /** Where the keys went: [start, end) offsets to put the selected text back in. */
  get span(): [number, number] {
    return [this.start, this.start + this.typed.length];
  }
}
