// An OpenAI-compatible HTTP server for tests, on 127.0.0.1 and a free port: /v1/models,
// /v1/completions and /v1/chat/completions, streamed (SSE) or not. It records every request (body,
// and whether the client closed the socket before the answer ended), answers from a script, and can
// stall (never answer) or fail (HTTP status) on demand. Plain CommonJS: the unit tests (node) and the
// real-VS-Code suite (extension host) both use it.
const http = require('http');

class OpenAiTestServer {
  constructor() {
    /** @type {Array<{path: string, body: any, closedEarly: boolean, finished: boolean}>} */
    this.requests = [];
    /** Answers used in order; the last one repeats. Each: {text, status?, stall?, stallAfterChunks?, chunkSize?, delayMs?} */
    this.answers = [{ text: 'pass' }];
    this.models = ['qwen2.5-coder-1.5b'];
    this.waiters = [];
    this.sockets = new Set();
    this.server = http.createServer((req, res) => this.handle(req, res));
    this.server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
  }

  /** @returns {Promise<string>} the base URL (`http://127.0.0.1:PORT/v1`) */
  listen() {
    return new Promise((resolve) => this.server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${this.server.address().port}/v1`)));
  }

  /** Answers for the requests from now on, in order; the last one repeats. An answer may be a function of the request body. */
  script(...answers) {
    this.answers = answers;
    this.scriptStart = this.requests.length;
  }

  /** Resolves with the next recorded request (or one already recorded beyond `seen`). */
  nextRequest(seen = this.requests.length) {
    if (this.requests.length > seen) return Promise.resolve(this.requests[seen]);
    return new Promise((resolve) => this.waiters.push({ seen, resolve }));
  }

  /** Resolves once the client has closed the socket of `request` before the answer ended. */
  whenClosed(request, timeoutMs = 5000) {
    return new Promise((resolve, reject) => {
      const started = Date.now();
      const tick = () => {
        if (request.closedEarly) return resolve(true);
        if (Date.now() - started > timeoutMs) return reject(new Error('the client never closed the request'));
        setTimeout(tick, 10);
      };
      tick();
    });
  }

  close() {
    for (const s of this.sockets) s.destroy();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  handle(req, res) {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const url = req.url.replace(/\?.*$/, '');
      if (req.method === 'GET' && url.endsWith('/models')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ object: 'list', data: this.models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'test' })) }));
        return;
      }
      let body = {};
      try {
        body = raw ? JSON.parse(raw) : {};
      } catch {
        body = { unparsable: raw };
      }
      const record = { path: url, body, closedEarly: false, finished: false, headers: req.headers };
      this.requests.push(record);
      res.on('close', () => {
        if (!record.finished) record.closedEarly = true;
      });
      for (const w of this.waiters.filter((w) => this.requests.length > w.seen)) {
        this.waiters.splice(this.waiters.indexOf(w), 1);
        w.resolve(this.requests[w.seen]);
      }
      const scripted = this.answers[Math.min(this.requests.length - 1 - (this.scriptStart || 0), this.answers.length - 1)] ?? { text: '' };
      const answer = typeof scripted === 'function' ? scripted(body) : scripted;
      if (answer.stall) return; // never answers: the client must time out or abort
      if (answer.status) {
        record.finished = true;
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `scripted failure ${answer.status}`, type: 'server_error' } }));
        return;
      }
      const chat = url.endsWith('/chat/completions');
      const chunk = (text) =>
        chat
          ? { id: 'c1', object: 'chat.completion.chunk', created: 0, model: body.model, choices: [{ index: 0, delta: { content: text }, finish_reason: null }] }
          : { id: 'c1', object: 'text_completion', created: 0, model: body.model, choices: [{ index: 0, text, finish_reason: null, logprobs: null }] };
      if (!body.stream) {
        record.finished = true;
        res.writeHead(200, { 'content-type': 'application/json' });
        const choice = chat ? { index: 0, message: { role: 'assistant', content: answer.text }, finish_reason: 'stop' } : { index: 0, text: answer.text, finish_reason: 'stop' };
        res.end(JSON.stringify({ id: 'c1', object: chat ? 'chat.completion' : 'text_completion', created: 0, model: body.model, choices: [choice] }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
      const size = answer.chunkSize || 4;
      const pieces = [];
      for (let i = 0; i < answer.text.length; i += size) pieces.push(answer.text.slice(i, i + size));
      const send = (i) => {
        if (res.destroyed) return;
        if (answer.stallAfterChunks !== undefined && i >= answer.stallAfterChunks) return; // headers and some text sent, then silence
        if (i < pieces.length) {
          res.write(`data: ${JSON.stringify(chunk(pieces[i]))}\n\n`);
          setTimeout(() => send(i + 1), answer.delayMs || 0);
          return;
        }
        record.finished = true;
        res.end('data: [DONE]\n\n');
      };
      send(0);
    });
  }
}

module.exports = { OpenAiTestServer };
