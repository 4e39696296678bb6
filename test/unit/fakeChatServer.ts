// A local OpenAI-compatible /v1/chat/completions server for tests: records every request and answers
// from a script.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatRequest { model: string; messages: { role: string; content: string }[] }

export interface FakeChatServer {
  baseURL: string;
  requests: ChatRequest[];
  close(): Promise<void>;
}

export async function startFakeChatServer(answer: (prompt: string) => string): Promise<FakeChatServer> {
  const requests: ChatRequest[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const request = JSON.parse(body) as ChatRequest;
      requests.push(request);
      const content = answer(request.messages.at(-1)!.content);
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ id: 'x', object: 'chat.completion', created: 0, model: request.model, choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
