// Keys typed into the editor after the picker's chord but before its box took the focus, and putting
// them at the front of the box (no `vscode`: unit-tested). An extension's picker shows after a round trip to the extension host, and on a busy
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

/**
 * Puts the keys taken back at the front of the box. The extension host's value replaces the box's,
 * so a write replaces any key typed while it was on its way. Those keys are not lost: the box reports
 * each value it had before the write landed, then the written value itself; when values came in
 * between, the write is made again from the latest of them (and so on, until one lands with nothing
 * typed meanwhile). Until then searches ask for the keys taken back followed by the box's value.
 */
export class FrontWriter {
  private prefix = '';
  /** The box's value as last reported without the keys taken back. */
  private latest = '';
  /** A write on its way: the value written, and the box value it was made from. */
  private pending: { value: string; from: string } | undefined;

  /** `prefix`: the keys taken back; `box`: the box's value now. */
  start(prefix: string, box: string): void {
    this.prefix = prefix;
    this.latest = box;
  }

  /** The box reported `value`: write again now, wait for the box to be quiet before writing, or nothing to do. */
  changed(value: string): 'write' | 'wait' | 'none' {
    if (!this.prefix) return 'none';
    if (this.pending && value === this.pending.value) {
      const { from } = this.pending;
      this.pending = undefined;
      if (this.latest === from) {
        this.prefix = ''; // landed with nothing typed meanwhile: done
        return 'none';
      }
      return 'write'; // keys reached the box while the write was on its way: again, with them
    }
    this.latest = value;
    return this.pending ? 'none' : 'wait';
  }

  /** The value to write into the box now (undefined: nothing left to write). */
  write(): string | undefined {
    if (!this.prefix) return undefined;
    this.pending = { value: this.prefix + this.latest, from: this.latest };
    return this.pending.value;
  }

  /** What to search for the box's value. */
  query(value: string): string {
    return this.prefix && value !== this.pending?.value ? this.prefix + value : value;
  }
}
