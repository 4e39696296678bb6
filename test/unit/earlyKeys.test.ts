// Which editor edits, made between the picker's chord and its box taking the focus, are keys meant for
// the picker (src/extension/earlyKeys.ts): plain characters typed one after another at the cursor; and how
// they are put at the front of the box without losing keys typed meanwhile.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EarlyKeys, FrontWriter } from '../../src/extension/earlyKeys';

const key = (offset: number, text: string, length = 0) => [{ offset, length, text }];

test('characters typed at the cursor are the keys, in order', () => {
  const keys = new EarlyKeys(10, 0);
  for (const [i, c] of [...'sub'].entries()) assert.equal(keys.add(key(10 + i, c)), true);
  assert.equal(keys.text, 'sub');
  assert.deepEqual(keys.span, [10, 13]);
});

test('the first key replaces the selection, the next ones follow it', () => {
  const keys = new EarlyKeys(6, 12);
  assert.equal(keys.add(key(6, 'C', 12)), true);
  assert.equal(keys.add(key(7, 'a')), true);
  assert.equal(keys.text, 'Ca');
});

test('anything but a plain key after the previous one is not understood, and nothing is taken', () => {
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
    const answers = edits.map((e) => keys.add(e));
    assert.equal(answers.at(-1), false, what);
    assert.equal(keys.text, '', what);
    assert.equal(keys.add(key(0, 'z')), false, `${what}: stays not understood`);
  }
});

// The box as the extension host hears of it: the values it reports, in the order they arrive.
test('the keys taken back go to the front of the box once it is quiet', () => {
  const writer = new FrontWriter();
  writer.start('cal', 'l');
  assert.equal(writer.query('l'), 'call', 'searched with the keys taken back meanwhile');
  assert.equal(writer.changed('le'), 'wait');
  assert.equal(writer.write(), 'calle');
  assert.equal(writer.changed('calle'), 'none', 'the write came back with nothing typed meanwhile: done');
  assert.equal(writer.query('caller'), 'caller');
  assert.equal(writer.write(), undefined);
});

test('keys typed while a write was on its way are written again, not lost', () => {
  const writer = new FrontWriter();
  writer.start('cal', 'lers of');
  assert.equal(writer.write(), 'callers of');
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

test('nothing taken back: the box is left alone', () => {
  const writer = new FrontWriter();
  assert.equal(writer.changed('abc'), 'none');
  assert.equal(writer.write(), undefined);
  assert.equal(writer.query('abc'), 'abc');
});
