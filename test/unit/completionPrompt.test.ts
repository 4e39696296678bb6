// Prompt templates per model family, single- vs multi-line, stop sequences and suffix trimming.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cutAtStop, trimSuffixOverlap } from '../../src/core/completion/postprocess';
import { buildPrompt, completionShape, detectFamily } from '../../src/core/completion/prompt';

describe('completion prompts', () => {
  it('detects the FIM family from model names and spells each template in its own tokens', () => {
    const cases: Array<[string, string, RegExp]> = [
      ['qwen2.5-coder:1.5b', 'qwen', /^<\|fim_prefix\|>P<\|fim_suffix\|>S<\|fim_middle\|>$/],
      ['deepseek-coder-6.7b-base', 'deepseek', /^<｜fim▁begin｜>P<｜fim▁hole｜>S<｜fim▁end｜>$/],
      ['bigcode/starcoder2-3b', 'starcoder', /^<fim_prefix>P<fim_suffix>S<fim_middle>$/],
      ['codellama:7b-code', 'codellama', /^<PRE> P <SUF>S <MID>$/],
    ];
    for (const [model, family, shape] of cases) {
      assert.equal(detectFamily(model), family, model);
      const built = buildPrompt({ family: detectFamily(model), language: 'python', prefix: 'P', suffix: 'S', shape: 'multi-line' });
      assert.equal(built.kind, 'completion');
      if (built.kind === 'completion') assert.match(built.prompt, shape);
    }
    assert.equal(detectFamily('gpt-4o-mini'), 'chat');
  });

  it('stop sequences follow the shape and the language', () => {
    const single = buildPrompt({ family: 'qwen', language: 'python', prefix: 'x = ', suffix: '', shape: 'single-line' });
    assert.equal(single.stop[0], '\n');
    const py = buildPrompt({ family: 'qwen', language: 'python', prefix: 'def f():\n', suffix: '', shape: 'multi-line' });
    assert.ok(py.stop.includes('\ndef ') && py.stop.includes('<|endoftext|>') && !py.stop.includes('\n'));
    const ts = buildPrompt({ family: 'starcoder', language: 'typescript', prefix: 'function f() {\n', suffix: '', shape: 'multi-line' });
    assert.ok(ts.stop.includes('\nexport ') && ts.stop.includes('<file_sep>'));
    assert.ok(single.maxTokens < py.maxTokens);
  });

  it('single-line inside a line with code after the cursor, multi-line after a block opener or on a fresh line', () => {
    assert.equal(completionShape('    x = foo(', 'a, b)\n'), 'single-line');
    assert.equal(completionShape('    return calc.', '\n'), 'single-line');
    assert.equal(completionShape('def f(a):', '\n'), 'multi-line');
    assert.equal(completionShape('def f(a):\n    ', '\n'), 'multi-line');
    assert.equal(completionShape('function f() {\n  ', '\n}'), 'multi-line');
    assert.equal(completionShape('x = 1\ny = ', ')'), 'single-line');
  });

  it('cuts at the first stop sequence', () => {
    assert.deepEqual(cutAtStop('a + b\n\n\ndef g():', ['\ndef ', '\n\n\n']), { text: 'a + b', stopped: true });
    assert.deepEqual(cutAtStop('a + b', ['\n']), { text: 'a + b', stopped: false });
  });

  it('trims what duplicates the suffix: closing brackets on the line, block lines below', () => {
    assert.equal(trimSuffixOverlap('add(a, b))', ')\n'), 'add(a, b)');
    assert.equal(trimSuffixOverlap('get("k", None)):', '):\n    pass'), 'get("k", None)');
    assert.equal(trimSuffixOverlap('add(a, b)', '\n'), 'add(a, b)', 'nothing to trim');
    const completion = 'if x:\n        return 1\n    return 0';
    assert.equal(trimSuffixOverlap(completion, '\n    return 0\n'), 'if x:\n        return 1', 'a line the suffix already has');
    assert.equal(trimSuffixOverlap('  \n', 'x'), '', 'whitespace only is no completion');
  });
});
