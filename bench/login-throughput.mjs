#!/usr/bin/env node
// Login throughput: 20 concurrent clients signing in to the built server for a fixed time, plus one
// client alone for the single-login latency. Requests come from 250 loopback addresses (127.0.1.x),
// so allauth's 30-logins-per-minute-per-IP limit does not cap the measurement; limits stay on.
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startBuiltServer } from './built-server.mjs';
import { summarize } from './stats.mjs';

const root = fileURLToPath(new URL('../', import.meta.url));
const { lastKeyFor } = await import(join(root, 'packages/server/dist/index.js'));
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 20);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const PASSWORD = 'a-sturdy-benchmark-passphrase';
let nextAddress = 0;
const localAddress = () => `127.0.1.${(nextAddress++ % 250) + 1}`;

function post(url, body, address = localAddress()) {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(body);
    const req = request(
      url,
      {
        method: 'POST',
        localAddress: address,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode, text }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const dataDir = mkdtempSync(join(tmpdir(), 'planwright-bench-login-'));
const server = await startBuiltServer(dataDir);
try {
  const { url } = server;
  const email = 'bench@example.com';
  await post(`${url}/_allauth/app/v1/auth/signup`, {
    email,
    password: PASSWORD,
    terms_agreement: true,
    phone_number_x: '',
  });
  const key = await lastKeyFor(join(dataDir, 'outbox'), email, '/account/verify-email/');
  await post(`${url}/_allauth/app/v1/auth/email/verify`, { key });
  const login = async () => {
    const started = performance.now();
    const res = await post(`${url}/_allauth/app/v1/auth/login`, { email, password: PASSWORD });
    return { ms: performance.now() - started, ok: res.status === 200 };
  };

  const alone = [];
  for (let i = 0; i < 30; i++) alone.push((await login()).ms);

  const concurrent = [];
  let errors = 0;
  const deadline = performance.now() + SECONDS * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (performance.now() < deadline) {
        const result = await login();
        concurrent.push(result.ms);
        if (!result.ok) errors++;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const single = summarize(alone);
  const loaded = summarize(concurrent);
  const p99 = [...concurrent].sort((a, b) => a - b)[Math.floor(concurrent.length * 0.99)] ?? 0;
  console.log(
    JSON.stringify({
      bench: 'login-throughput',
      title: `Login (scrypt N=2^14, r=12, p=1): one client, then ${CLIENTS} concurrent`,
      method: `Built server on PGlite; POST /_allauth/app/v1/auth/login with a verified account from 250 loopback addresses; 30 sequential logins, then ${CLIENTS} clients looping for ${SECONDS} s. Latency is client-side wall time per request.`,
      results: [
        {
          name: 'one login alone',
          unit: 'ms',
          ...single,
          target: '≤ 100 ms (median)',
          pass: single.median <= 100,
        },
        {
          name: `login under ${CLIENTS} concurrent clients`,
          unit: 'ms',
          ...loaded,
          target: 'reported (p99 below)',
          pass: null,
        },
        {
          name: `p99 under ${CLIENTS} concurrent clients`,
          unit: 'ms',
          value: Math.round(p99),
          target: 'reported',
          pass: null,
        },
        {
          name: 'throughput',
          unit: 'logins/s',
          value: Math.round((concurrent.length / elapsed) * 10) / 10,
          target: 'reported',
          pass: null,
        },
        { name: 'failed logins', unit: '', value: errors, target: '0', pass: errors === 0 },
      ],
    }),
  );
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
