// A real HTTP load balancer for tests: Debian's nginx (installed by .ci/run), run as a plain process in
// a temporary folder (its config, pid, logs and buffers all there), terminating TLS with a certificate
// made at test time and balancing round-robin over the given loopback backends, on a port the test
// picked from the OS. A backend that refuses connections is passed over (proxy_next_upstream), as a
// team's nginx does when a replica dies.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tlsFetch, type TestCert } from './tls.js';
import { until, withDeadline } from './wait.js';

export type TestNginx = {
  /** https://127.0.0.1:PORT */
  base: string;
  dir: string;
  /** Lines nginx wrote to its error log (a failed backend shows here). */
  errors: () => string;
  stop: () => Promise<void>;
};

function nginxBinary(): string {
  for (const dir of (process.env.PATH ?? '').split(':').concat(['/usr/sbin', '/usr/local/sbin', '/sbin'])) {
    const p = join(dir, 'nginx');
    if (dir && existsSync(p)) return p;
  }
  throw new Error(
    "nginx is not installed, and the load-balancer test runs a real one. Install Debian's: `apt-get install -y nginx-light` (.ci/run does this).",
  );
}

export async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((resolve, reject) => srv.once('error', reject).listen(0, '127.0.0.1', resolve));
  const a = srv.address();
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  if (a === null || typeof a === 'string') throw new Error('The OS gave no TCP port for the test nginx.');
  return a.port;
}

/** The config the test runs, also the one docs/guide/team.md shows (less TLS). */
export function nginxConfig(o: { dir: string; port: number; backends: string[]; asRoot: boolean; cert: string; key: string }): string {
  const d = o.dir;
  return `${o.asRoot ? 'user root;\n' : ''}worker_processes 1;
pid ${d}/nginx.pid;
error_log ${d}/error.log warn;
events { worker_connections 512; }
http {
  access_log ${d}/access.log;
  client_body_temp_path ${d}/body;
  proxy_temp_path ${d}/proxy;
  fastcgi_temp_path ${d}/fastcgi;
  uwsgi_temp_path ${d}/uwsgi;
  scgi_temp_path ${d}/scgi;
  upstream mws {
${o.backends.map((b) => `    server ${b} max_fails=1 fail_timeout=30s;`).join('\n')}
    keepalive 16;
  }
  server {
    listen 127.0.0.1:${o.port} ssl;
    ssl_certificate ${o.cert};
    ssl_certificate_key ${o.key};
    location / {
      proxy_pass http://mws;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-Host $http_host;
      proxy_set_header X-Forwarded-Proto https;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_buffering off;
      proxy_connect_timeout 2s;
      proxy_read_timeout 300s;
      proxy_next_upstream error timeout;
      proxy_next_upstream_tries 3;
    }
  }
}
`;
}

/** nginx on 127.0.0.1:`port` (from `freePort`), HTTPS with `tls` (a certificate for 127.0.0.1), in front of `backends` (host:port). */
export async function startNginx(o: { port: number; backends: string[]; tls: TestCert }): Promise<TestNginx> {
  const bin = nginxBinary();
  const dir = await mkdtemp(join(tmpdir(), 'mws-nginx-'));
  const { port, backends } = o;
  const conf = join(dir, 'nginx.conf');
  writeFileSync(conf, nginxConfig({ dir, port, backends, asRoot: process.getuid?.() === 0, cert: o.tls.cert, key: o.tls.key }));
  const proc = spawn(bin, ['-p', dir, '-e', join(dir, 'error.log'), '-c', conf, '-g', 'daemon off;'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout.on('data', (d) => (out += d));
  proc.stderr.on('data', (d) => (out += d));
  const errors = () => {
    try {
      return readFileSync(join(dir, 'error.log'), 'utf8');
    } catch {
      return '';
    }
  };
  const base = `https://127.0.0.1:${port}`;
  const get = tlsFetch(o.tls.pem, '127.0.0.1');
  try {
    await until(async () => {
      if (proc.exitCode !== null) throw new Error(`nginx exited with ${proc.exitCode}: ${out} ${errors()}`);
      const r = await get(`${base}/healthz`, { signal: AbortSignal.timeout(2000) });
      if (r.status !== 200) throw new Error(`nginx answered ${r.status}: ${(await r.text()).slice(0, 200)} ${errors().slice(-400)}`);
      return true;
    }, `nginx on port ${port} to answer /healthz through a backend`);
  } catch (err) {
    // SIGTERM, not SIGKILL: nginx's master stops its workers only when it is asked, not when it dies.
    proc.kill('SIGTERM');
    await rm(dir, { recursive: true, force: true }).catch(() => {});
    throw err;
  }
  let stopped = false;
  return {
    base,
    dir,
    errors,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      if (proc.exitCode === null && proc.signalCode === null) {
        const gone = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
        proc.kill('SIGQUIT');
        // SIGQUIT: nginx's graceful stop; past the deadline SIGTERM, its fast stop (workers included).
        await withDeadline(gone, 'nginx to stop', 10_000).catch(() => proc.kill('SIGTERM'));
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
