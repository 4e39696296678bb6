// The user's chat model in VS Code (Copilot or any other provider, through vscode.lm) as the streaming
// model semantic lifting describes code with. VS Code asks the user itself, on the first request,
// whether Cartograph may use the model; Cartograph asks first too, with what the run will send.
import * as vscode from 'vscode';
import type { StreamingChatModel } from '../core/lifting/streamDescriber';

/** The model `family` names (or the first VS Code offers when empty); undefined when there is none. */
export async function chooseChatModel(family: string): Promise<vscode.LanguageModelChat | undefined> {
  const models = await vscode.lm.selectChatModels(family ? { family } : {});
  return models.find((m) => m.id === family) ?? models[0];
}

export function streamingChatModel(model: vscode.LanguageModelChat): StreamingChatModel {
  return {
    name: model.name,
    async send(system, prompt, signal) {
      const cancel = new vscode.CancellationTokenSource();
      signal?.addEventListener('abort', () => cancel.cancel(), { once: true });
      // The chat API has no system role: the instructions lead the one user message.
      const message = vscode.LanguageModelChatMessage.User(`${system}\n\n${prompt}`);
      const response = await model.sendRequest([message], { justification: 'Cartograph describes your functions and classes in plain words for search and its functional view.' }, cancel.token);
      return response.text;
    },
    countTokens: async (text) => model.countTokens(text),
  };
}
