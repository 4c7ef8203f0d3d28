// A model that fails is not an outage, and the window says so: a real `mws serve`
// whose model folder is broken (MWS_MODEL_DIR: a model.json that names no real files), in Debian's
// Chromium. The first search starts the model, search answers by words, and the Search screen shows
// the one warning the log has.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { serveWithWindow, type WindowServe } from '../helpers/windowServe.js';
import { until } from '../helpers/wait.js';

let w: WindowServe;

beforeAll(async () => {
  w = await serveWithWindow({ upstreams: { demo: { builtin: 'demo' } } }, (dir) => {
    // A model folder whose manifest is there but whose graph is not: model_missing.
    const model = join(dir, 'broken-model');
    mkdirSync(model);
    writeFileSync(
      join(model, 'model.json'),
      JSON.stringify({
        name: 'broken',
        dim: 384,
        maxTokens: 128,
        pooling: 'mean',
        output: 'last_hidden_state',
        files: { 'model.onnx': '0'.repeat(64), 'tokenizer.json': '0'.repeat(64) },
      }),
    );
    return { MWS_MODEL_DIR: model };
  });
});

afterAll(async () => {
  await w?.stop();
});

describe('the semantic-search warning in the window', () => {
  it('a broken model: search still answers (by words) and the Search screen shows the warning', async () => {
    const api = w.control();
    const page = await w.openWindow();
    await page.evaluate(() => (location.hash = '#/search'));
    expect(await page.getByTestId('semantic-warning').count()).toBe(0);
    await page.getByLabel('Query').fill('send an email to bob');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    // Answered, by words: the reply is there with mail tools first.
    await expect.poll(() => page.getByTestId('reply').textContent(), { timeout: 30_000 }).toContain('mail_send');
    await until(async () => (await api.status({})).semanticSearch?.state === 'off', 'the broken model to be given up', 30_000);
    const warning = page.getByTestId('semantic-warning');
    await warning.waitFor({ timeout: 30_000 });
    const text = (await warning.textContent()) ?? '';
    expect(text).toContain('Search by meaning is off');
    expect(text).toContain((await api.status({})).semanticSearch!.warning!);
    // One warning in the log, not one per search.
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => page.getByTestId('reply').textContent()).toContain('mail_send');
    const lines = w.serve
      .stderr()
      .split('\n')
      .filter((l) => l.includes('search model') || l.includes('model.onnx'));
    expect(lines, w.serve.stderr()).toHaveLength(1);
    await page.close();
  });
});
