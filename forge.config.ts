// Packaging: zip for every platform, deb for Linux, dmg for macOS, squirrel for Windows.
// (Packaging downloads Electron, so it runs on release machines, not on CI here.)
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { ForgeConfig } from '@electron-forge/shared-types';
import { MakerZIP } from '@electron-forge/maker-zip';
import { MakerDeb } from '@electron-forge/maker-deb';
import { MakerDMG } from '@electron-forge/maker-dmg';
import { MakerSquirrel } from '@electron-forge/maker-squirrel';

const config: ForgeConfig = {
  packagerConfig: {
    name: 'Working Set',
    executableName: 'working-set',
    icon: 'resources/icon',
    // onnxruntime-node's binding and shared library are loaded by the OS, which cannot read inside the asar.
    asar: { unpack: '**/node_modules/onnxruntime-node/bin/**' },
    // The sentence model ships beside app.asar (resources/model/…), not inside it: see extraResource.
    ignore: [/^\/(test|bench|spike|src-renderer|\.ci|scripts|\.model-candidates)(\/|$)/, /^\/resources\/model(\/|$)/],
    extraResource: ['resources/model'],
  },
  hooks: {
    // Only this build's platform of onnxruntime-node's binaries (all five are ~290 MB; one is 25–86 MB).
    packageAfterPrune: async (_config, buildPath, _electronVersion, platform, arch) => {
      const bin = join(buildPath, 'node_modules', 'onnxruntime-node', 'bin', 'napi-v6');
      for (const p of await readdir(bin).catch(() => [] as string[])) {
        for (const a of await readdir(join(bin, p)).catch(() => [] as string[])) {
          if (p !== platform || a !== arch) await rm(join(bin, p, a), { recursive: true, force: true });
        }
      }
    },
  },
  makers: [
    new MakerZIP({}, ['darwin', 'linux', 'win32']),
    new MakerDeb({
      options: { name: 'working-set', productName: 'Working Set', icon: 'resources/icon.png', categories: ['Development', 'Utility'] },
    }),
    new MakerDMG({ format: 'ULFO' }),
    new MakerSquirrel({ name: 'working_set' }),
  ],
};

export default config;
