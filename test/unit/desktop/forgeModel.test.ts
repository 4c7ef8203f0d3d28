// Packaging the model: it ships beside app.asar (a native runtime cannot read inside the archive),
// and only the packaged platform's onnxruntime binaries stay in the app.
import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import config from '../../../forge.config.js';
import { DEFAULT_MODEL } from '../../../src-main/core/search/embed/modelFiles.js';
import { tempDir } from '../../helpers/app.js';
import { ROOT } from '../../helpers/processes.js';

describe('forge packaging of the model', () => {
  it('keeps resources/model out of the asar and adds it as an extra resource', () => {
    const p = config.packagerConfig!;
    const ignore = p.ignore as RegExp[];
    expect(ignore.some((r) => r.test(`/resources/model/${DEFAULT_MODEL}/model.onnx`))).toBe(true);
    expect(ignore.some((r) => r.test('/resources/icon.png'))).toBe(false);
    expect(p.extraResource).toContain('resources/model');
    expect(existsSync(join(ROOT, 'resources/model', DEFAULT_MODEL, 'model.json'))).toBe(true);
    expect(p.asar).toMatchObject({ unpack: expect.stringContaining('onnxruntime-node/bin') });
  });

  it('prunes every other platform of onnxruntime-node after the copy', async () => {
    const build = tempDir();
    const bin = join(build, 'node_modules/onnxruntime-node/bin/napi-v6');
    for (const pa of ['linux/x64', 'linux/arm64', 'darwin/arm64', 'win32/x64']) {
      mkdirSync(join(bin, pa), { recursive: true });
      writeFileSync(join(bin, pa, 'onnxruntime_binding.node'), '');
    }
    const hook = config.hooks!.packageAfterPrune as unknown as (c: unknown, b: string, e: string, p: string, a: string) => Promise<void>;
    await hook(config, build, '45.5.0', 'darwin', 'arm64');
    expect(readdirSync(join(bin, 'darwin'))).toEqual(['arm64']);
    expect(readdirSync(join(bin, 'linux'))).toEqual([]);
    expect(readdirSync(join(bin, 'win32'))).toEqual([]);
    // A build without onnxruntime-node (it failed to install) is not an error.
    await hook(config, tempDir(), '45.5.0', 'linux', 'x64');
  });
});
