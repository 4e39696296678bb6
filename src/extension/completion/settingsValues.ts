// The completion settings' values, from VS Code's configuration in the extension or a plain object in
// tests: defaults for missing values, numbers clamped to their documented range, renamed keys read
// through their old names while those still hold a value (settingNames.ts).
import type { AssembleOptions } from '../../core/completion/assemble';
import type { PromptFamily } from '../../core/completion/prompt';
import type { EndpointSettings } from '../../core/completion/service';
import { DEFAULT_CONTEXT_WINDOW } from '../../core/completion/window';
import { readRenamed, type ReadableConfig } from '../settingNames';

export interface CompletionSettings {
  enabled: boolean;
  debounceMs: number;
  endpoint: Omit<EndpointSettings, 'apiKey'>;
  assemble: AssembleOptions;
}

const FORMATS = new Set(['auto', 'qwen', 'deepseek', 'starcoder', 'codellama', 'chat']);
/** `cartograph.completion.contextWindow`'s range (package.json): below 1k nothing but the answer fits. */
const MIN_CONTEXT_WINDOW = 1024;
const MAX_CONTEXT_WINDOW = 1_048_576;

export function completionSettingsFrom(config: ReadableConfig): CompletionSettings {
  const format = readRenamed(config, 'completion.promptFormat', 'auto');
  const number = (key: string, fallback: number, min: number, max: number) => {
    const v = readRenamed<unknown>(config, key, undefined);
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
      contextWindow: Math.floor(number('completion.contextWindow', DEFAULT_CONTEXT_WINDOW, MIN_CONTEXT_WINDOW, MAX_CONTEXT_WINDOW)),
    },
    assemble: {
      budgetTokens: number('completion.contextTokens', 2048, 0, 32768),
      mmrLambda: number('completion.contextFocus', 0.7, 0, 1),
    },
  };
}
