import path from 'node:path';
import { LocalRepository } from './src/core/service/localRepository';
const r = await LocalRepository.open('/tmp/dj', { storeDir: null });
await r.index();
const qs = ['the session cookie is not refreshed on each request', 'QuerySet.filter with Q objects ignores exclude', 'migrations autodetector crashes when renaming a model with a foreign key', 'admin changelist pagination shows wrong count', 'template engine fails to load custom filters'];
for (let round = 0; round < 3; round++) {
  const times: number[] = [];
  for (const q of qs) { const t = performance.now(); await r.rankFiles(q, 10); times.push(Math.round(performance.now() - t)); }
  console.log(round, times.join(' '));
}
await r.close();
