// Once per `vitest run`: compile the fixture servers and the CLI to plain JS (see helpers/build.ts).
import { buildAll } from './helpers/build.js';

export default function setup(): void {
  buildAll();
}
