// Runs the demo toolbox on stdio, for benchmarks and for trying the proxy against a real child process.
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { createDemoServer } from './server.js';

// serveStdio answers both the 2026-07-28 probe and the 2025 handshake.
serveStdio(() => createDemoServer());
