// Completion server setup in the editor: Set Up Completion Server (a preset, marked when it answers on
// this machine, or any address; then its key if it needs one, and a model from its list), Choose
// Completion Model (from the server's /v1/models), and Test Completion Connection (one tiny request,
// and exactly what failed). The requests themselves are in core/llm/connection.ts.
import * as vscode from 'vscode';
import { checkConnection, detectLocalServers, listModels, PRESETS, type Failure, type Outcome, type Preset, type Target } from '../../core/llm/connection';
import { endpointProblem } from '../../core/llm/endpoint';
import { detectFamily } from '../../core/completion/prompt';
import { guard } from '../log';
import type { ApiKeys } from '../secrets';
import { completionSettingsFrom } from './settingsValues';

/** What Test Completion Connection found (returned for tests). */
export interface ConnectionReport {
  ok: boolean;
  message: string;
}

export function registerSetupCommands(keys: ApiKeys): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.commands.registerCommand('cartograph.setUpCompletion', () => guard('Set Up Completion Server', () => setUp(keys))),
    vscode.commands.registerCommand('cartograph.chooseCompletionModel', () => guard('Choose Completion Model', () => chooseModel(keys, current().endpoint))),
    vscode.commands.registerCommand('cartograph.testCompletionConnection', () => guard('Test Completion Connection', () => testConnection(keys))),
  );
}

/** The completion settings as the user set them (the user's settings, not one language's). */
function current() {
  return completionSettingsFrom(vscode.workspace.getConfiguration('cartograph')).endpoint;
}

async function target(keys: ApiKeys, endpoint: string): Promise<Target> {
  return { endpoint, apiKey: await keys.get('completion', endpoint), timeoutMs: current().timeoutMs };
}

interface ServerItem extends vscode.QuickPickItem {
  preset?: Preset;
}

async function setUp(keys: ApiKeys): Promise<string | undefined> {
  const endpoint = await chooseServer();
  if (!endpoint) return undefined;
  const hosted = PRESETS.some((p) => p.hosted && p.url === endpoint);
  if (hosted && !(await keys.get('completion', endpoint)) && !(await keys.ask('completion', endpoint))) return undefined;
  const model = await chooseModel(keys, endpoint);
  if (!model) return undefined;
  await vscode.workspace.getConfiguration('cartograph').update('completion.endpoint', endpoint, vscode.ConfigurationTarget.Global);
  await testConnection(keys);
  return model;
}

/** A preset (those answering here first, found while the list is open) or an address typed in. */
async function chooseServer(): Promise<string | undefined> {
  const pick = vscode.window.createQuickPick<ServerItem>();
  pick.title = 'Cartograph: completion server';
  pick.placeholder = 'Pick the server that will complete your code (looking for the ones running on this machine…)';
  const other: ServerItem = { label: '$(edit) Another OpenAI-compatible server…', detail: 'Type its address, e.g. http://gpu-box:8000/v1' };
  const items = (running: readonly Preset[]) => [
    ...PRESETS.map((preset): ServerItem => ({
      preset,
      label: preset.label,
      description: preset.url,
      detail: running.includes(preset) ? '$(pass-filled) Running on this machine' : preset.hosted ? 'Hosted: needs an API key' : undefined,
    })).sort((a, b) => Number(running.includes(b.preset!)) - Number(running.includes(a.preset!))),
    other,
  ];
  pick.items = items([]);
  pick.busy = true;
  void detectLocalServers().then((running) => {
    pick.items = items(running);
    pick.busy = false;
    pick.placeholder = running.length ? `Found ${running.map((p) => p.label).join(', ')} on this machine` : 'No server found running on this machine at its default address';
  });
  const chosen = await new Promise<ServerItem | undefined>((resolve) => {
    pick.onDidAccept(() => resolve(pick.selectedItems[0]));
    pick.onDidHide(() => resolve(undefined));
    pick.show();
  });
  pick.dispose();
  if (!chosen) return undefined;
  if (chosen.preset) return chosen.preset.url;
  const typed = await vscode.window.showInputBox({
    title: 'Cartograph: completion server address',
    prompt: 'Its OpenAI-compatible base URL, usually ending in /v1',
    value: current().endpoint || 'http://127.0.0.1:8080/v1',
    ignoreFocusOut: true,
    validateInput: (value) => endpointProblem(value) ?? (value.trim() ? undefined : 'Write the address'),
  });
  return typed?.trim().replace(/\/+$/, '') || undefined;
}

/** The server's models in a list, the one set now first; the pick becomes `cartograph.completion.model`. */
async function chooseModel(keys: ApiKeys, endpoint: string): Promise<string | undefined> {
  let models = await listModels(await target(keys, endpoint));
  if (!models.ok && models.failure.kind === 'unauthorized' && (await offerKey(models.failure, endpoint, keys))) models = await listModels(await target(keys, endpoint));
  if (!models.ok) {
    void vscode.window.showErrorMessage(`Cartograph: could not list the models of ${endpoint || 'the completion server'}: ${models.failure.message}`);
    return undefined;
  }
  const set = current().model;
  const items = models.value.map((id): vscode.QuickPickItem => ({ label: id, description: id === set ? 'set now' : detectFamily(id) !== 'chat' ? 'fill-in-the-middle' : undefined }));
  const chosen = await vscode.window.showQuickPick(items.sort((a, b) => Number(b.label === set) - Number(a.label === set)), {
    title: `Cartograph: model for completion (${endpoint})`,
    placeHolder: 'Code models that fill in the middle (Qwen2.5-Coder, DeepSeek-Coder, StarCoder2, CodeLlama) complete best',
  });
  if (!chosen) return undefined;
  await vscode.workspace.getConfiguration('cartograph').update('completion.model', chosen.label, vscode.ConfigurationTarget.Global);
  return chosen.label;
}

async function offerKey(failure: Failure, endpoint: string, keys: ApiKeys): Promise<boolean> {
  const choice = await vscode.window.showWarningMessage(`Cartograph: ${failure.message}`, 'Set API Key');
  return choice === 'Set API Key' && (await keys.ask('completion', endpoint)) === 'stored';
}

/** Lists the models (is it there, does it take the key), then asks the model for one token as completion would. */
async function testConnection(keys: ApiKeys): Promise<ConnectionReport> {
  const settings = current();
  const to = await target(keys, settings.endpoint);
  const report = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Cartograph: testing ${settings.endpoint || 'the completion server'}…` }, async (): Promise<Outcome<string>> => {
    const models = await listModels(to);
    if (!models.ok) return models;
    const model = settings.model || models.value[0];
    const family = settings.promptFormat === 'auto' ? detectFamily(model) : settings.promptFormat;
    const via = family === 'chat' ? 'chat' : 'completions';
    const check = await checkConnection(to, model, via);
    if (!check.ok) return check;
    return { ok: true, value: `${model} answered through /${via === 'chat' ? 'chat/completions' : 'completions'} in ${check.value.firstChunkMs} ms${settings.model ? '' : ' (no model set: the first one listed)'}` };
  });
  if (report.ok) {
    void vscode.window.showInformationMessage(`Cartograph: connected. ${report.value}.`);
    return { ok: true, message: report.value };
  }
  const { failure } = report;
  const actions = failure.kind === 'unauthorized' ? ['Set API Key'] : failure.kind === 'model' || failure.kind === 'no-models' ? ['Choose Model'] : ['Set Up Server'];
  void vscode.window.showErrorMessage(`Cartograph: the completion server test failed: ${failure.message}`, ...actions).then((choice) => {
    const command = { 'Set API Key': 'cartograph.setApiKey', 'Choose Model': 'cartograph.chooseCompletionModel', 'Set Up Server': 'cartograph.setUpCompletion' }[choice ?? ''];
    if (command) void vscode.commands.executeCommand(command);
  });
  return { ok: false, message: failure.message };
}
