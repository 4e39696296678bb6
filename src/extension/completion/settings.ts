// Completion settings, read per language (VS Code's `"[python]": {...}` overrides) and per folder.
import * as vscode from 'vscode';
import type { AssembleOptions } from '../../core/completion/assemble';
import type { PromptFamily } from '../../core/completion/prompt';
import type { EndpointSettings } from '../../core/completion/service';

export interface CompletionSettings {
  enabled: boolean;
  debounceMs: number;
  endpoint: Omit<EndpointSettings, 'apiKey'>;
  assemble: AssembleOptions;
}

const FORMATS = new Set(['auto', 'qwen', 'deepseek', 'starcoder', 'codellama', 'chat']);

export function readCompletionSettings(document: vscode.TextDocument): CompletionSettings {
  const config = vscode.workspace.getConfiguration('cartograph', { uri: document.uri, languageId: document.languageId });
  const format = config.get<string>('llm.promptFormat', 'auto');
  const number = (key: string, fallback: number, min: number, max: number) => {
    const v = config.get<number>(key);
    return typeof v === 'number' && Number.isFinite(v) ? Math.min(max, Math.max(min, v)) : fallback;
  };
  return {
    enabled: config.get<boolean>('completion.enabled', true),
    debounceMs: number('completion.debounceMs', 250, 0, 5000),
    endpoint: {
      endpoint: config.get<string>('llm.endpoint', '').trim().replace(/\/+$/, ''),
      model: config.get<string>('llm.model', '').trim(),
      timeoutMs: number('llm.timeoutMs', 10000, 500, 120000),
      promptFormat: (FORMATS.has(format) ? format : 'auto') as PromptFamily | 'auto',
    },
    assemble: {
      budgetTokens: number('completion.contextTokens', 2048, 0, 32768),
      mmrLambda: number('completion.mmrLambda', 0.7, 0, 1),
    },
  };
}
