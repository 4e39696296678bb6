// The settings renamed so that the Settings UI titles read well (VS Code titles a setting from its
// key: `cartograph.llm.endpoint` showed as "Llm: Endpoint", `completion.mmrLambda` as "Mmr Lambda"),
// and how a renamed setting is read while its old key may still hold a value. No `vscode` import:
// unit-tested. The move of old values is renamedSettings.ts.

/** Old key → new key, under `cartograph.`. The old keys are declared deprecated in package.json. */
export const RENAMED_SETTINGS: readonly { from: string; to: string }[] = [
  { from: 'llm.endpoint', to: 'completion.endpoint' },
  { from: 'llm.model', to: 'completion.model' },
  { from: 'llm.timeoutMs', to: 'completion.timeout' },
  { from: 'llm.promptFormat', to: 'completion.promptFormat' },
  { from: 'completion.debounceMs', to: 'completion.delay' },
  { from: 'completion.mmrLambda', to: 'completion.contextFocus' },
  { from: 'watcherDebounceMs', to: 'watcherDelay' },
];

/** What reading needs of a vscode.WorkspaceConfiguration. */
export interface ReadableConfig {
  get<T>(key: string, fallback: T): T;
  inspect(key: string): { globalValue?: unknown; workspaceValue?: unknown; workspaceFolderValue?: unknown } | undefined;
}

/**
 * A renamed setting's value: the new key's where it is set, else the old key's where that is still
 * set, else the new key's default. `key` is the new key under `cartograph.`.
 */
export function readRenamed<T>(config: ReadableConfig, key: string, fallback: T): T {
  const old = RENAMED_SETTINGS.find((r) => r.to === key)?.from;
  const isSet = (i: ReturnType<ReadableConfig['inspect']>) => !!i && [i.globalValue, i.workspaceValue, i.workspaceFolderValue].some((v) => v !== undefined);
  if (old && !isSet(config.inspect(key)) && isSet(config.inspect(old))) return config.get<T>(old, fallback);
  return config.get<T>(key, fallback);
}
