// Packaging: zip for every platform, deb for Linux, dmg for macOS, squirrel for Windows.
// (Packaging downloads Electron, so it runs on release machines, not on CI here.)
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
    asar: true,
    ignore: [/^\/(test|bench|spike|src-renderer|\.ci)(\/|$)/],
  },
  makers: [
    new MakerZIP({}, ['darwin', 'linux', 'win32']),
    new MakerDeb({ options: { name: 'working-set', productName: 'Working Set', icon: 'resources/icon.png', categories: ['Development', 'Utility'] } }),
    new MakerDMG({ format: 'ULFO' }),
    new MakerSquirrel({ name: 'working_set' }),
  ],
};

export default config;
