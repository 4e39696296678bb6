// Which editor edits, made between the picker's chord and its box taking the focus, are keys meant for
// the picker (src/extension/earlyKeys.ts): plain characters typed one after another at the cursor; and how
// they are put at the front of the box without losing keys typed meanwhile.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EarlyKeys, EarlyKeysWatch, FrontWriter } from '../../src/extension/earlyKeys';

const key = (offset: number, text: string, length = 0) => [{ offset, length, text }];

/** Types `text` into `keys` from `offset`, a key at a time, as far as the keys are understood. */
const type = (keys: EarlyKeys, offset: number, text: string, selected = 0) =>
  [...text].every((c, i) => {
    const edit = key(offset + i, c, i === 0 ? selected : 0);
    if (!keys.isKey(edit)) return false;
    keys.add(edit);
    return true;
  });

test('characters typed at the cursor are the keys, in order', () => {
  const keys = new EarlyKeys(10, 0);
  assert.equal(type(keys, 10, 'sub'), true);
  assert.equal(keys.text, 'sub');
  assert.deepEqual(keys.span, [10, 13]);
});

test('the first key replaces the selection, the next ones follow it', () => {
  const keys = new EarlyKeys(6, 12);
  assert.equal(type(keys, 6, 'Ca', 12), true);
  assert.equal(keys.text, 'Ca');
});

test('the first key may land at either end of the selection without replacing it (a selection set that has not reached the editor)', () => {
  const atEnd = new EarlyKeys(6, 12);
  assert.equal(type(atEnd, 18, 'ca'), true);
  assert.deepEqual(atEnd.span, [18, 20]);
  assert.equal(atEnd.replacedSelection, false);
  const replacing = new EarlyKeys(6, 12);
  assert.equal(type(replacing, 6, 'ca', 12), true);
  assert.equal(replacing.replacedSelection, true);
  assert.equal(new EarlyKeys(6, 12).isKey(key(9, 'c')), false, 'inside the selection');
  assert.equal(new EarlyKeys(6, 12).isKey(key(6, 'c', 3)), false, 'replacing part of it');
});

test('keys typed after a selection not yet applied are put back without writing the selection again', async () => {
  const doc = editor('x = Cached\n', 'edit');
  const watch = doc.watch(4, 'Cached');
  for (const [i, c] of [...'cal'].entries()) assert.equal(doc.key(10 + i, c), true);
  watch.paused();
  await doc.land();
  assert.deepEqual(doc.taken, ['cal']);
  assert.equal(doc.text(), 'x = Cached\n');
  watch.finish();
  assert.equal(doc.ended(), true);
});

test('keys with no start yet begin where the first one lands', () => {
  const keys = new EarlyKeys(undefined, 0);
  assert.equal(type(keys, 42, 'of '), true);
  assert.deepEqual(keys.span, [42, 45]);
  assert.equal(keys.isKey(key(50, 'x')), false, 'the next key follows the last');
});

test('anything but a plain key after the previous one is not a key', () => {
  const cases: [string, ReturnType<typeof key>[]][] = [
    ['an auto-closed bracket', [key(0, '()')]],
    ['a line break', [key(0, '\n')]],
    ['a key somewhere else', [key(0, 'a'), key(5, 'b')]],
    ['a deletion', [key(0, 'a'), key(0, '', 1)]],
    ['two cursors', [[{ offset: 0, length: 0, text: 'a' }, { offset: 9, length: 0, text: 'a' }]]],
    ['a selection kept after the first key', [key(0, 'a'), key(1, 'b', 3)]],
  ];
  for (const [what, edits] of cases) {
    const keys = new EarlyKeys(0, 0);
    const last = edits.pop()!;
    for (const e of edits) keys.add(e);
    assert.equal(keys.isKey(last), false, what);
  }
});

/**
 * A document as the extension host hears of it, with an editor that puts keys back as VS Code does:
 * the put back is on its way until `land` (keys typed meanwhile reach the document first), and then
 * either reverts the whole file (to the text it had at the chord) or applies an edit of the span,
 * which does not apply where the document changed since it was made.
 */
function editor(initial: string, how: 'revert' | 'edit') {
  let text = initial;
  const taken: string[] = [];
  const puts: { from: number; to: number; put: string; version: number; answer: (applied: boolean) => void }[] = [];
  let version = 0;
  let ended = false;
  let watch!: EarlyKeysWatch;
  const change = (offset: number, length: number, put: string) => {
    text = text.slice(0, offset) + put + text.slice(offset + length);
    version++;
    return watch.edited([{ offset, length, text: put }]);
  };
  const host = {
    text: () => text,
    taken,
    ended: () => ended,
    watch: (start: number, selected: string) => {
      watch = new EarlyKeysWatch(start, selected, {
        putBack: (from, to, put) => new Promise<boolean>((answer) => puts.push({ from, to, put, version, answer })),
        asBefore: () => text === initial,
        taken: (keys) => taken.push(keys),
        ended: () => (ended = true),
      });
      return watch;
    },
    /** A key typed at `offset` (replacing `length`). */
    key: (offset: number, c: string, length = 0) => change(offset, length, c),
    /** The put back on its way lands now; the promise it answered has settled once this resolves. */
    land: async () => {
      const put = puts.shift()!;
      if (how === 'revert') {
        const whole = text.length;
        if (text !== initial) change(0, whole, initial);
        put.answer(true);
      } else if (put.version !== version) put.answer(false);
      else {
        change(put.from, put.to - put.from, put.put);
        put.answer(true);
      }
      await new Promise((resolve) => setImmediate(resolve));
    },
    /** The editor refuses the put back on its way (closed, say): nothing changes. */
    refuse: async () => {
      puts.shift()!.answer(false);
      await new Promise((resolve) => setImmediate(resolve));
    },
    waiting: () => puts.length,
  };
  return host;
}

test('a pause puts the keys back; keys typed while a revert is on its way go with it, and the watch goes on', async () => {
  const doc = editor('x = Cached\n', 'revert');
  const watch = doc.watch(4, 'Cached');
  for (const [i, c] of [...'callers '].entries()) assert.equal(doc.key(4 + i, c, i === 0 ? 6 : 0), true);
  watch.paused();
  // a stalled page: "of " reaches the editor while the revert is on its way
  for (const [i, c] of [...'of '].entries()) doc.key(12 + i, c);
  await doc.land();
  assert.deepEqual(doc.taken, ['callers of ']);
  assert.equal(doc.text(), 'x = Cached\n');
  assert.equal(doc.ended(), false, 'still watching: the box may still be on its way');
  // more keys, wherever the revert left the cursor, then the box has a key: put back, and over
  for (const [i, c] of [...'Json'].entries()) doc.key(4 + i, c);
  watch.finish();
  assert.equal(doc.ended(), false, 'over once the last put back lands');
  await doc.land();
  assert.deepEqual(doc.taken, ['callers of ', 'Json']);
  assert.equal(doc.text(), 'x = Cached\n');
  assert.equal(doc.ended(), true);
});

test('an edit back that keys overtook does not apply, and the next one takes them too', async () => {
  const doc = editor('abc\n', 'edit');
  const watch = doc.watch(3, '');
  for (const [i, c] of [...'sub'].entries()) doc.key(3 + i, c);
  watch.paused();
  doc.key(6, 'c'); // typed while the edit was on its way: the edit was made for "sub" alone
  await doc.land();
  assert.deepEqual(doc.taken, []);
  assert.equal(doc.text(), 'abcsubc\n', 'nothing lost, nothing put back yet');
  watch.paused(); // the keys paused again
  await doc.land();
  assert.deepEqual(doc.taken, ['subc']);
  assert.equal(doc.text(), 'abc\n');
  watch.finish();
  assert.equal(doc.ended(), true, 'nothing left in the editor: over at once');
});

test('the box having a key while an edit back failed: put back again at once with the keys now there', async () => {
  const doc = editor('abc\n', 'edit');
  const watch = doc.watch(3, '');
  doc.key(3, 's');
  watch.paused();
  doc.key(4, 'u');
  watch.finish();
  await doc.land();
  assert.equal(doc.waiting(), 1, 'tried again without waiting for a pause');
  await doc.land();
  assert.deepEqual(doc.taken, ['su']);
  assert.equal(doc.ended(), true);
});

test('an edit that is not a key ends the watch and is left alone, with the keys before it', async () => {
  const doc = editor('abc\n', 'revert');
  const watch = doc.watch(3, '');
  doc.key(3, 'x');
  assert.equal(doc.key(0, '()'), false, 'an auto-closed bracket');
  assert.equal(doc.ended(), true);
  watch.paused();
  watch.finish();
  assert.equal(doc.waiting(), 0, 'nothing is put back');
  assert.deepEqual(doc.taken, []);
  assert.equal(doc.text(), '()abcx\n');
});

test('a put back that fails with no key typed meanwhile is not tried again', async () => {
  const doc = editor('abc\n', 'edit');
  const watch = doc.watch(3, '');
  doc.key(3, 'x');
  watch.paused();
  watch.finish();
  await doc.refuse();
  assert.equal(doc.waiting(), 0, 'it would fail again');
  assert.equal(doc.ended(), true);
  assert.deepEqual(doc.taken, []);
});

// The box as the extension host hears of it: the values it reports, in the order they arrive.
test('the keys taken back go to the front of the box once it is quiet', () => {
  const writer = new FrontWriter();
  writer.changed('l');
  writer.add('cal');
  assert.equal(writer.query('l'), 'call', 'searched with the keys taken back meanwhile');
  assert.equal(writer.changed('le'), 'wait');
  assert.equal(writer.write(), 'calle');
  assert.equal(writer.changed('calle'), 'none', 'the write came back with nothing typed meanwhile: done');
  assert.equal(writer.query('caller'), 'caller');
  assert.equal(writer.write(), undefined);
});

test('keys typed while a write was on its way are written again, not lost', () => {
  const writer = new FrontWriter();
  writer.changed('lers of');
  writer.add('cal');
  assert.equal(writer.write(), 'callers of');
  assert.equal(writer.writing('callers of'), true, 'the write coming back is not a key');
  assert.equal(writer.writing('lers of J'), false);
  // the box had more before the write landed over it: reported first, then the write itself
  assert.equal(writer.changed('lers of J'), 'none');
  assert.equal(writer.changed('lers of Js'), 'none');
  assert.equal(writer.query('lers of Js'), 'callers of Js');
  assert.equal(writer.changed('callers of'), 'write', 'the write replaced "Js"');
  assert.equal(writer.write(), 'callers of Js');
  assert.equal(writer.changed('callers of Js'), 'none');
  assert.equal(writer.changed('callers of Jso'), 'none', 'typing on after the write landed');
  assert.equal(writer.query('callers of Jso'), 'callers of Jso');
});

test('keys taken back while a write is on its way are written after it lands, not counted as written', () => {
  const writer = new FrontWriter();
  writer.add('callers ');
  writer.changed('son'); // the focus reached the box before the first write
  assert.equal(writer.write(), 'callers son');
  writer.add('of J'); // a second batch, taken back from the editor meanwhile
  assert.equal(writer.query('son'), 'callers of Json');
  assert.equal(writer.changed('callers son'), 'wait', 'landed with the first batch only');
  assert.equal(writer.query('callers son'), 'callers of Json');
  assert.equal(writer.write(), 'callers of Json');
  assert.equal(writer.changed('callers of Json'), 'none');
  assert.equal(writer.write(), undefined, 'all written');
  assert.equal(writer.query('callers of JsonL'), 'callers of JsonL');
});

test('keys typed after a write landed over others build on it: written again as the box means it', () => {
  // as logged on a loaded machine: "cal" taken back; "lers of JsonLoade" typed while its write was on its way;
  // "r.load" typed after that write landed (on top of "callers "), while the second write was on its way
  const writer = new FrontWriter();
  writer.add('cal');
  writer.changed('lers ');
  assert.equal(writer.write(), 'callers ');
  for (const v of ['lers o', 'lers of', 'lers of JsonLoade']) assert.equal(writer.changed(v), 'none');
  assert.equal(writer.changed('callers '), 'write', 'landed over "of JsonLoade"');
  assert.equal(writer.write(), 'callers of JsonLoade');
  for (const v of ['callers r', 'callers r.', 'callers r.load']) writer.changed(v);
  assert.equal(writer.query('callers r.load'), 'callers of JsonLoader.load', 'searched as meant meanwhile');
  assert.equal(writer.changed('callers of JsonLoade'), 'write', 'landed over "r.load"');
  assert.equal(writer.write(), 'callers of JsonLoader.load');
  assert.equal(writer.changed('callers of JsonLoader.load'), 'none');
  assert.equal(writer.write(), undefined, 'all written');
  assert.equal(writer.query('callers of JsonLoader.load'), 'callers of JsonLoader.load');
});

test('nothing taken back: the box is left alone', () => {
  const writer = new FrontWriter();
  assert.equal(writer.changed('abc'), 'none');
  assert.equal(writer.write(), undefined);
  assert.equal(writer.query('abc'), 'abc');
});

test('keys taken back in batches go in the order typed: after those already written, before the box\'s own', () => {
  const writer = new FrontWriter();
  writer.add('callers ');
  assert.equal(writer.write(), 'callers ');
  assert.equal(writer.changed('callers '), 'none', 'landed');
  // a second batch, taken back after the first was written (the box had no key of its own yet)
  writer.add('of ');
  assert.equal(writer.query('callers '), 'callers of ');
  // the focus reached the box meanwhile: its own keys come after both batches
  assert.equal(writer.changed('callers J'), 'wait');
  assert.equal(writer.query('callers J'), 'callers of J');
  assert.equal(writer.write(), 'callers of J');
  assert.equal(writer.changed('callers of J'), 'none');
  assert.equal(writer.write(), undefined, 'all written');
  // a box emptied by the user has nothing of ours in front: a later batch goes first
  writer.changed('');
  writer.add('x');
  assert.equal(writer.query('abc'), 'xabc');
});
