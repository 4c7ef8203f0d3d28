// The IPC channels the ControlApi travels on between the desktop main process (desktop/ipc.ts)
// and the preload: named once for both sides. Imports nothing, so the sandboxed preload can bundle it.
export const INVOKE_CHANNEL = 'control:invoke';
export const EVENT_CHANNEL = 'control:event';
/** Console mode: the remote instance's event stream is open again, and events in the gap were lost. */
export const REOPENED_CHANNEL = 'control:reopened';
