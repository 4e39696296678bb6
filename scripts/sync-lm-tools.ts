// Writes package.json's `contributes.languageModelTools` from the agent tools' schemas
// (src/core/tools/schemas.ts): `node --import tsx scripts/sync-lm-tools.ts` after changing a tool.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { languageModelToolsContribution } from '../src/core/tools/schemas';

const file = path.join(__dirname, '..', 'package.json');
const pkg = JSON.parse(fs.readFileSync(file, 'utf8'));
pkg.contributes.languageModelTools = languageModelToolsContribution();
fs.writeFileSync(file, `${JSON.stringify(pkg, null, 2)}\n`);
console.log(`package.json: ${pkg.contributes.languageModelTools.length} language-model tools`);
