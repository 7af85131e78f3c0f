#!/usr/bin/env node
// `npm run install:local-model`: the one extra install of the local-model path (`--embedding-model DIR`). Installs
// @huggingface/transformers without saving it in package.json, with onnxruntime-node's install step told to skip
// (ONNXRUNTIME_NODE_INSTALL=skip: its CPU runtime is in the package; the step would fetch CUDA libraries from NuGet).
import { spawnSync } from 'node:child_process';

const LOCAL_MODEL_PACKAGE = '@huggingface/transformers@^4.3.1';

const npmCli = process.env.npm_execpath; // set when run through npm; otherwise npm from PATH
const args = ['install', '--no-save', '--no-audit', '--no-fund', LOCAL_MODEL_PACKAGE];
const run = npmCli
  ? spawnSync(process.execPath, [npmCli, ...args], { stdio: 'inherit', env: { ...process.env, ONNXRUNTIME_NODE_INSTALL: 'skip' } })
  : spawnSync('npm', args, { stdio: 'inherit', shell: process.platform === 'win32', env: { ...process.env, ONNXRUNTIME_NODE_INSTALL: 'skip' } });
if (run.status === 0) console.log(`${LOCAL_MODEL_PACKAGE} installed (not saved in package.json: \`npm ci\` or \`npm install\` removes it; run this again after them)`);
process.exit(run.status ?? 1);
