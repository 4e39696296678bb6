// Keys typed into the editor after the picker's chord but before its box took the focus, and putting
// them at the front of the box (no `vscode`: unit-tested). An extension's picker shows after a round trip to the extension host, and on a busy
// machine that takes long enough for a quick typist's first letters to land in the code. The edits
// the editor reports in that time are recognised here as such keys only when they are exactly that:
// one character each, no line break, each right after the previous one, the first replacing what was
// selected. Anything else (an auto-closed bracket, a paste, a formatter, another cursor) means the
// edits are not understood: they are left alone, and nothing more is taken into the picker.

/** One edit as the editor reports it: where it starts (offset), how much it replaced, what it wrote. */
export interface Edit {
  offset: number;
  length: number;
  text: string;
}

export class EarlyKeys {
  private typed = '';
  /** Whether the first key replaced the selection (what a put back writes again). */
  private replaced = false;

  /**
   * `start`: the offset of the cursor (or of the selection's start), undefined where the first key
   * says it (after a put back the editor decides where its cursor is); `selected`: the selection's length.
   */
  constructor(
    private start: number | undefined,
    private readonly selected: number,
  ) {}

  /**
   * Whether an editor change in the document is the next key: one character right after the last. The
   * first replaces the selection, or lands at either end of it: the selection the extension host
   * knows can be one it set that has not reached the editor yet (the previous picker's, put back as
   * the user pressed the chord again), where the cursor is still at the end of the text put back.
   */
  isKey(edits: readonly Edit[]): boolean {
    const [edit] = edits;
    if (edits.length !== 1 || edit.text.length !== 1 || /[\r\n]/.test(edit.text)) return false;
    if (this.start === undefined) return edit.length === this.selected; // (the first key after a put back, anywhere)
    if (this.typed) return edit.length === 0 && edit.offset === this.start + this.typed.length;
    if (edit.offset === this.start && edit.length === this.selected) return true;
    return edit.length === 0 && (edit.offset === this.start || edit.offset === this.start + this.selected);
  }

  /** The next key (isKey said so). */
  add(edits: readonly Edit[]): void {
    if (!this.typed) {
      this.start = edits[0].offset;
      this.replaced = edits[0].length > 0;
    }
    this.typed += edits[0].text;
  }

  /** Whether the keys took the selection's place (a put back writes it again). */
  get replacedSelection(): boolean {
    return this.replaced;
  }

  /** The keys typed, in order. */
  get text(): string {
    return this.typed;
  }

  /** Where the keys went: [start, end) offsets to put the selected text back in. */
  get span(): [number, number] {
    const start = this.start ?? 0;
    return [start, start + this.typed.length];
  }
}

/** What watching the editor asks of it. */
export interface KeysEditor {
  /**
   * Put [from, to) back to `text`; false (or an error) when that did not apply. One that applies is a
   * change of the document, reported to `edited` like any other (that is how the watch knows it has
   * landed; a change that also took keys typed while it was on its way lands those too).
   */
  putBack(from: number, to: number, text: string): Promise<boolean>;
  /** Whether the document's text is what it was when the watch began. */
  asBefore(): boolean;
  /** Keys taken back, in the order typed: one call per put back that landed. */
  taken(text: string): void;
  /** The watch is over: the editor is as it was, or has edits that were not understood (left alone). */
  ended(): void;
}

/**
 * The editor watched from the chord until the focus has moved to the box (its first key), the picker
 * closed, or time ran out. The keys are put back in batches, each once they pause (the box may still
 * be on its way, and keys come on after the pause). A change that is not a key and leaves the document
 * as before is a put back landing: it took the keys typed before it. Anything else not a key is the
 * user's: left alone, and the watch is over. Asked to end, it puts back what is still in the editor first.
 */
export class EarlyKeysWatch {
  private batch: EarlyKeys;
  /** The put back on its way, made for these keys. */
  private putting: { keys: string } | undefined;
  private ending = false;
  private over = false;

  constructor(
    start: number,
    private readonly selected: string,
    private readonly editor: KeysEditor,
  ) {
    this.batch = new EarlyKeys(start, selected.length);
  }

  /** A change of the document: true when it was a key (the pause starts again). */
  edited(edits: readonly Edit[]): boolean {
    if (this.over) return false;
    if (this.batch.isKey(edits)) {
      this.batch.add(edits);
      return true;
    }
    if (this.batch.text && this.editor.asBefore()) this.landed();
    else this.end(); // not understood: left alone
    return false;
  }

  /** The keys paused: put back those in the editor. */
  paused(): void {
    if (this.over || this.putting || !this.batch.text) return;
    const put = { keys: this.batch.text };
    this.putting = put;
    const [from, to] = this.batch.span;
    // each put back leaves the document as it was before the chord
    this.editor.putBack(from, to, this.batch.replacedSelection ? this.selected : '').then(
      (applied) => applied || this.failed(put),
      () => this.failed(put),
    );
  }

  /** The box had a key, the picker closed or time ran out: the last keys put back, and the watch over. */
  finish(): void {
    if (this.over) return;
    this.ending = true;
    if (this.putting) return; // over once it lands
    if (this.batch.text) this.paused();
    else this.end();
  }

  /** A put back did not apply (the document changed meanwhile): again, with the keys now there. */
  private failed(put: { keys: string }): void {
    if (this.over || this.putting !== put) return; // landed all the same
    this.putting = undefined;
    if (put.keys === this.batch.text) this.end(); // not because of keys typed meanwhile: it would fail again
    else if (this.ending) this.paused();
  }

  private landed(): void {
    const text = this.batch.text;
    this.putting = undefined;
    this.editor.taken(text);
    // where the editor left its cursor after the put back is its own choice: the next key says where
    this.batch = new EarlyKeys(undefined, 0);
    if (this.ending) this.end();
  }

  private end(): void {
    if (this.over) return;
    this.over = true;
    this.editor.ended();
  }
}

/**
 * Puts the keys taken back at the front of the box, after those taken back before (they come in
 * batches, each typed after the last). The extension host's value replaces the box's, so a write
 * replaces any key typed while it was on its way. Those keys are not lost: the box reports each value
 * it had before the write landed, then the written value itself; when values came in between, the
 * box now shows the write where it means the write with those keys in it, keys typed after build on
 * what it shows, and the write is made again from what it means (and so on, until one lands with
 * nothing typed meanwhile). Until then searches ask for what the box means, with the keys taken back.
 */
export class FrontWriter {
  /** Keys taken back, not yet in the box. */
  private waiting = '';
  /** Keys taken back that a write has put at the front of the box. */
  private written = '';
  /** The box's value as last reported (a write that landed included). */
  private box = '';
  /** A write landed over keys typed meanwhile: box values starting with `shown` mean `meant` and the rest. */
  private overwritten: { shown: string; meant: string } | undefined;
  /** A write on its way: the value written, the box value it was made from, and the keys it put in. */
  private pending: { value: string; from: string; keys: string } | undefined;

  /** Keys taken back from the editor, typed after any taken before. */
  add(keys: string): void {
    this.waiting += keys;
  }

  /** The box reported `value`: write again now, wait for the box to be quiet before writing, or nothing to do. */
  changed(value: string): 'write' | 'wait' | 'none' {
    const landed = this.pending && value === this.pending.value ? this.pending : undefined;
    if (!landed) {
      this.box = value;
      return this.waiting && !this.pending ? 'wait' : 'none';
    }
    this.pending = undefined;
    // its keys are in the box, after those written before (keys taken back while it was on its way are still to write)
    const meant = this.meaning(this.box);
    const withLanded = this.inFront(meant, landed.keys);
    this.written = (meant.startsWith(this.written) ? this.written : '') + landed.keys;
    this.waiting = this.waiting.slice(landed.keys.length);
    const overtaken = this.box !== landed.from;
    this.box = value;
    this.overwritten = overtaken ? { shown: value, meant: withLanded } : undefined;
    if (overtaken) return 'write'; // keys reached the box while the write was on its way: again, with them
    return this.waiting ? 'wait' : 'none';
  }

  /** Whether `value` is the write on its way coming back (not a key of the user's). */
  writing(value: string): boolean {
    return value === this.pending?.value;
  }

  /** The value to write into the box now (undefined: nothing left to write). */
  write(): string | undefined {
    if (!this.waiting && !this.overwritten) return undefined;
    this.pending = { value: this.query(this.box), from: this.box, keys: this.waiting };
    return this.pending.value;
  }

  /** What to search for the box's value. */
  query(value: string): string {
    return this.writing(value) ? value : this.inFront(this.meaning(value), this.waiting);
  }

  /** What a box value stands for, given a write that landed over keys typed meanwhile. */
  private meaning(box: string): string {
    const o = this.overwritten;
    return o && box.startsWith(o.shown) ? o.meant + box.slice(o.shown.length) : box;
  }

  /** `box` with `keys` after those written before (at the front, where it no longer starts with those). */
  private inFront(box: string, keys: string): string {
    return box.startsWith(this.written) ? this.written + keys + box.slice(this.written.length) : keys + box;
  }
}
