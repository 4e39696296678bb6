// Completion settings, read per language (VS Code's `"[python]": {...}` overrides) and per folder.
import * as vscode from 'vscode';
import type { AssembleOptions } from '../../core/completion/assemble';
import type { PromptFamily } from '../../core/completion/prompt';
import type { EndpointSettings } from '../../core/completion/service';
import { readRenamed } from '../settingNames';

export interface CompletionSettings {
  enabled: boolean;
  debounceMs: number;
  endpoint: Omit<EndpointSettings, 'apiKey'>;
  assemble: AssembleOptions;
}

const FORMATS = new Set(['auto', 'qwen', 'deepseek', 'starcoder', 'codellama', 'chat']);

export function readCompletionSettings(document: vscode.TextDocument): CompletionSettings {
  const config = vscode.workspace.getConfiguration('cartograph', { uri: document.uri, languageId: document.languageId });
  const format = readRenamed(config, 'completion.promptFormat', 'auto');
  const number = (key: string, fallback: number, min: number, max: number) => {
    const v = readRenamed<number | undefined>(config, key, undefined);
    return typeof v === 'number' && Number.isFinite(v) ? Math.min(max, Math.max(min, v)) : fallback;
  };
  return {
    enabled: config.get<boolean>('completion.enabled', true),
    debounceMs: number('completion.delay', 250, 0, 5000),
    endpoint: {
      endpoint: readRenamed(config, 'completion.endpoint', '').trim().replace(/\/+$/, ''),
      model: readRenamed(config, 'completion.model', '').trim(),
      timeoutMs: number('completion.timeout', 10000, 500, 120000),
      promptFormat: (FORMATS.has(format) ? format : 'auto') as PromptFamily | 'auto',
    },
    assemble: {
      budgetTokens: number('completion.contextTokens', 2048, 0, 32768),
      mmrLambda: number('completion.contextFocus', 0.7, 0, 1),
    },
  };
}
