// The request a completion sends: a raw fill-in-the-middle prompt in the model family's own tokens
// for `/v1/completions` (llama.cpp's server ignores OpenAI's `suffix` field, so FIM must be spelled
// out), or chat messages when the family is unknown or the server has no completions endpoint.
import type { Language } from '../model/schema';

export type PromptFamily = 'qwen' | 'deepseek' | 'starcoder' | 'codellama' | 'chat';

interface FimTemplate {
  build(prefix: string, suffix: string): string;
  /** End-of-text and file-separator tokens the family emits when the middle is done. */
  stops: string[];
}

const FIM: Record<Exclude<PromptFamily, 'chat'>, FimTemplate> = {
  qwen: {
    build: (p, s) => `<|fim_prefix|>${p}<|fim_suffix|>${s}<|fim_middle|>`,
    stops: ['<|endoftext|>', '<|fim_pad|>', '<|file_sep|>', '<|im_end|>'],
  },
  deepseek: {
    build: (p, s) => `<｜fim▁begin｜>${p}<｜fim▁hole｜>${s}<｜fim▁end｜>`,
    stops: ['<｜end▁of▁sentence｜>', '<|EOT|>'],
  },
  starcoder: {
    build: (p, s) => `<fim_prefix>${p}<fim_suffix>${s}<fim_middle>`,
    stops: ['<|endoftext|>', '<file_sep>'],
  },
  codellama: {
    build: (p, s) => `<PRE> ${p} <SUF>${s} <MID>`,
    stops: ['<EOT>', '</s>'],
  },
};

/** The family from a model name (`qwen2.5-coder:1.5b`, `deepseek-coder-6.7b-base`, `bigcode/starcoder2-3b`, `codellama:7b-code`). */
export function detectFamily(model: string): PromptFamily {
  const m = model.toLowerCase();
  if (m.includes('qwen')) return 'qwen';
  if (m.includes('deepseek')) return 'deepseek';
  if (m.includes('starcoder') || m.includes('santacoder')) return 'starcoder';
  if (m.includes('codellama') || m.includes('code-llama') || m.includes('code_llama')) return 'codellama';
  return 'chat';
}

/** Where a block of code ends in each language: the next top-level definition. */
const BLOCK_STOPS: Record<Language, string[]> = {
  python: ['\ndef ', '\nclass ', '\nif __name__', '\n\n\n'],
  typescript: ['\nfunction ', '\nexport ', '\nclass ', '\n\n\n'],
  tsx: ['\nfunction ', '\nexport ', '\nclass ', '\n\n\n'],
  javascript: ['\nfunction ', '\nexport ', '\nclass ', '\n\n\n'],
  go: ['\nfunc ', '\ntype ', '\n\n\n'],
  java: ['\n}\n', '\n\n\n'],
  rust: ['\nfn ', '\npub fn ', '\nimpl', '\n#[', '\n\n\n'],
};

export type CompletionShape = 'single-line' | 'multi-line';

/**
 * Multi-line when the cursor opens a block (after `:` / `{` / `(`, or on a fresh line below one) or
 * sits on an empty line of its own; single-line when code follows the cursor on its line or the line
 * is half-written.
 */
export function completionShape(prefix: string, suffix: string): CompletionShape {
  const lineBefore = prefix.slice(prefix.lastIndexOf('\n') + 1);
  const lineAfter = suffix.split('\n', 1)[0];
  if (/[^\s)\]}"'`;,]/.test(lineAfter)) return 'single-line';
  const before = lineBefore.trimEnd();
  if (/[:{([]$/.test(before)) return 'multi-line';
  if (before.trim() === '') {
    const previous = prefix.slice(0, prefix.length - lineBefore.length).trimEnd();
    return /[:{([]$/.test(previous) || previous.length === 0 || lineBefore.length > 0 ? 'multi-line' : 'single-line';
  }
  return 'single-line';
}

export interface PromptRequest {
  family: PromptFamily;
  language: Language;
  /** Fused context (already serialized as comments) + the buffer before the cursor. */
  prefix: string;
  suffix: string;
  shape: CompletionShape;
}

export type BuiltPrompt =
  | { kind: 'completion'; prompt: string; stop: string[]; maxTokens: number }
  | { kind: 'chat'; messages: Array<{ role: 'system' | 'user'; content: string }>; stop: string[]; maxTokens: number };

/** Tokens the model may answer with: a line, or a block. */
export function answerTokens(shape: CompletionShape): number {
  return shape === 'single-line' ? 64 : 256;
}

export function buildPrompt(req: PromptRequest): BuiltPrompt {
  const lineStops = req.shape === 'single-line' ? ['\n'] : BLOCK_STOPS[req.language];
  const maxTokens = answerTokens(req.shape);
  if (req.family === 'chat') {
    return {
      kind: 'chat',
      messages: [
        {
          role: 'system',
          content:
            'You complete code. Reply with only the code that belongs at <CURSOR>: no explanation, no markdown fences, nothing that repeats the code around it.' +
            (req.shape === 'single-line' ? ' Complete the current line only.' : ''),
        },
        { role: 'user', content: `${req.prefix}<CURSOR>${req.suffix}` },
      ],
      stop: req.shape === 'single-line' ? ['\n'] : [],
      maxTokens,
    };
  }
  const fim = FIM[req.family];
  return { kind: 'completion', prompt: fim.build(req.prefix, req.suffix), stop: [...lineStops, ...fim.stops], maxTokens };
}
