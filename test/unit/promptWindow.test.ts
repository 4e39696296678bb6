// The whole prompt fits the model's context window: on real code (Flask's 2,500-line app.py,
// TanStack Query's observer) at cursors through the file, for windows from 2k to 32k tokens, the
// prompt completion sends (repository context + the code around the cursor + FIM template) plus the
// answer's max_tokens is counted with a real BPE tokenizer (o200k_base) and never exceeds the window;
// what is cut is the far end of the buffer, never the code at the cursor.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { before, describe, it } from 'node:test';
import { encode } from 'gpt-tokenizer';
import { ContextAssembler, DEFAULT_ASSEMBLE_OPTIONS } from '../../src/core/completion/assemble';
import { answerTokens, buildPrompt, completionShape } from '../../src/core/completion/prompt';
import { planWindow } from '../../src/core/completion/window';
import type { Language } from '../../src/core/graph/schema';
import { FIXTURES, buildGraph, readTree } from './helpers';

const CASES: Array<{ root: string; file: string; language: Language }> = [
  { root: path.join(FIXTURES, 'real', 'flask'), file: 'app.py', language: 'python' },
  { root: path.join(FIXTURES, 'real', 'tanstack-query-core'), file: 'src/queryObserver.ts', language: 'typescript' },
];
const WINDOWS = [2048, 4096, 8192, 32768];

describe('the prompt fits the context window (real tokens)', () => {
  const assemblers = new Map<string, ContextAssembler>();
  before(async () => {
    for (const c of CASES) assemblers.set(c.root, new ContextAssembler(await buildGraph(readTree(c.root)), c.root));
  });

  for (const c of CASES) {
    it(`${c.file}: every window from 2k to 32k, cursors through the file`, async () => {
      const text = fs.readFileSync(path.join(c.root, c.file), 'utf8');
      const lines = text.split('\n');
      let checked = 0;
      for (const at of [0.1, 0.5, 0.9]) {
        const lineStart = lines.slice(0, Math.floor(lines.length * at)).join('\n').length + 1;
        const prefix = text.slice(0, lineStart);
        const suffix = text.slice(lineStart);
        const shape = completionShape(prefix, suffix);
        for (const contextWindow of WINDOWS) {
          const plan = planWindow({ language: c.language, prefix, suffix, contextWindow, answerTokens: answerTokens(shape), contextBudget: DEFAULT_ASSEMBLE_OPTIONS.budgetTokens });
          const context = await assemblers.get(c.root)!.assemble({ path: c.file, language: c.language, prefix, suffix }, { ...DEFAULT_ASSEMBLE_OPTIONS, budgetTokens: plan.contextTokens });
          const built = buildPrompt({ family: 'qwen', language: c.language, prefix: context.text + plan.prefix, suffix: plan.suffix, shape });
          assert.equal(built.kind, 'completion');
          // Sentinels counted as plain text: more tokens than the model's one each, so the check errs on the safe side.
          const used = encode(built.kind === 'completion' ? built.prompt : '', { disallowedSpecial: new Set() }).length + built.maxTokens;
          assert.ok(used <= contextWindow, `${c.file} at ${at}, window ${contextWindow}: ${used} tokens`);
          // The code at the cursor survives; cuts happen at the far ends, on line boundaries.
          assert.ok(prefix.endsWith(plan.prefix) && suffix.startsWith(plan.suffix));
          assert.ok(plan.prefix === prefix || plan.prefix === '' || prefix[prefix.length - plan.prefix.length - 1] === '\n');
          if (contextWindow >= 4096) assert.ok(plan.prefix.length > 0 && context.text.length > 0, 'a 4k window still carries code before the cursor and repository context');
          if (contextWindow === 32768 && at === 0.1) assert.equal(plan.prefix, prefix, 'a roomy window cuts nothing before the cursor');
          checked++;
        }
      }
      assert.equal(checked, 12);
    });
  }

  it('the default budget is kept where the window allows it, and shrinks where it does not', () => {
    const req = { language: 'python' as const, prefix: 'x = 1\n', suffix: '', answerTokens: 256, contextBudget: 2048 };
    assert.equal(planWindow({ ...req, contextWindow: 8192 }).contextTokens, 2048);
    assert.ok(planWindow({ ...req, contextWindow: 2048 }).contextTokens < 1024);
    assert.equal(planWindow({ ...req, contextWindow: 8192 }).prefix, 'x = 1\n', 'a short buffer is sent whole');
    assert.equal(planWindow({ ...req, contextWindow: 200 }).contextTokens, 0, 'a window smaller than the answer leaves nothing to spend');
  });
});
