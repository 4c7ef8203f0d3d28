// The ControlApi in one import: the answers' shapes (views.ts) and the methods, their arguments and
// the interface derived from them (contract.ts). Neither of those imports this file.
export type * from './views.js';
export type { ControlApi, ControlArgs, ControlHandlers, ControlInput, ControlMethod, ControlResult } from './contract.js';
export { CONTROL_METHODS, isControlMethod } from './contract.js';
