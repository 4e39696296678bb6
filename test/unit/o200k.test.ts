// The packed o200k counter (src/core/completion/o200k.ts) against gpt-tokenizer's o200k_base, the
// encoding it replaces at run time: every budget (completion context, tool answers) rests on these
// counts being the same.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { countTokens as reference } from 'gpt-tokenizer/cjs/encoding/o200k_base';
import { O200k } from '../../src/core/completion/o200k';

const encoding = O200k.read();
const referenceCount = (text: string) => reference(text, { disallowedSpecial: new Set() });

function* files(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (fs.statSync(full).size < 200_000) yield full;
  }
}

test('counts every real source file of the fixtures as gpt-tokenizer does', () => {
  const root = path.join(__dirname, '..', 'fixtures', 'real');
  let checked = 0;
  let tokens = 0;
  for (const file of files(root)) {
    const bytes = fs.readFileSync(file);
    if (bytes.includes(0)) continue; // binary
    const text = bytes.toString('utf8');
    const expected = referenceCount(text);
    assert.equal(encoding.count(text), expected, file);
    checked++;
    tokens += expected;
  }
  assert.ok(checked > 150 && tokens > 200_000, `${checked} files, ${tokens} tokens`);
});

test('counts what exercises each branch of the pre-tokenizer and the merge', () => {
  const texts = [
    "I'LL say it's done, we'Re HERE'S",
    'snake_case camelCaseName HTTPServerError __dunder__ x1y2z3',
    '1234567 3.14159 0x1F 1e-10 ١٢٣٤٥',
    '\t\tindented\r\n\r\n  \n\n\n    trailing   \n',
    'Größe straße ÆØÅ İstanbul naïve résumé',
    '日本語のテキストと中文文本，한국어 텍스트',
    'emoji 👩‍💻🚀 flags 🇫🇷 and combining é',
    'Ελληνικά русский עברית العربية हिन्दी',
    '<|endoftext|> <|fim_prefix|>x<|fim_suffix|>',
    'lone surrogate \ud800 here \udc00',
    '===== ----- ***** ////// ```ts\n{{{}}} =>',
    'a'.repeat(3000),
    'zqxjkvbwpfgmdlrtn'.repeat(40),
    ' '.repeat(500) + 'x',
  ];
  for (const text of texts) assert.equal(encoding.count(text), referenceCount(text), JSON.stringify(text.slice(0, 40)));
  assert.equal(encoding.count(''), 0);
});
