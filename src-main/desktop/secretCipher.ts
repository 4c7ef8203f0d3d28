// The desktop app's secrets are sealed by the OS keychain through Electron safeStorage (Keychain on
// macOS, DPAPI on Windows, libsecret/kwallet on Linux); the core's FileSecretStore takes it as a cipher.
import { safeStorage } from 'electron';
import type { SecretCipher } from '../core/secrets/store.js';

/** Written in secrets.json: a store without this cipher (headless `mws`) knows it cannot open the values. */
export const SAFE_STORAGE_CIPHER_ID = 'electron-safe-storage';

/**
 * The cipher, or undefined where the OS offers no keychain: on Linux without one, safeStorage falls back
 * to a key written in Chromium's source ("basic_text"), no better than the 0600 file, which is used then.
 * Call after the app is ready.
 */
export async function safeStorageCipher(): Promise<SecretCipher | undefined> {
  if (!(await safeStorage.isAsyncEncryptionAvailable())) return undefined;
  if (process.platform === 'linux' && safeStorage.getSelectedStorageBackend() === 'basic_text') return undefined;
  return {
    id: SAFE_STORAGE_CIPHER_ID,
    encrypt: async (plain) => (await safeStorage.encryptStringAsync(plain)).toString('base64'),
    decrypt: async (sealed) => (await safeStorage.decryptStringAsync(Buffer.from(sealed, 'base64'))).result,
  };
}
