// Where the window opens: where it was left, if that place is still on a screen; otherwise the default
// size, centred by the platform. A display unplugged since, or a store edited by hand, must never open
// the window off-screen or at an absurd size. No electron import here.
import type { WindowPlace } from './prefs.js';

export type Rect = { x: number; y: number; width: number; height: number };

export const DEFAULT_SIZE = { width: 1180, height: 820 } as const;
export const MIN_SIZE = { width: 640, height: 480 } as const;
/** How much of the title bar must show on some display for the saved place to be used. */
const VISIBLE = 100;

export type OpenPlace = { bounds: Partial<Rect> & { width: number; height: number }; maximized: boolean };

export function restoredPlace(saved: WindowPlace | null, workAreas: Rect[]): OpenPlace {
  if (!saved) return { bounds: { ...DEFAULT_SIZE }, maximized: false };
  const width = Math.max(MIN_SIZE.width, Math.round(saved.width));
  const height = Math.max(MIN_SIZE.height, Math.round(saved.height));
  const onScreen = workAreas.some(
    (a) => overlap(saved.x, saved.x + width, a.x, a.x + a.width) >= VISIBLE && saved.y >= a.y && saved.y < a.y + a.height - 20,
  );
  if (!onScreen)
    return {
      bounds: { width: Math.min(width, DEFAULT_SIZE.width), height: Math.min(height, DEFAULT_SIZE.height) },
      maximized: saved.maximized ?? false,
    };
  return { bounds: { x: Math.round(saved.x), y: Math.round(saved.y), width, height }, maximized: saved.maximized ?? false };
}

function overlap(a0: number, a1: number, b0: number, b1: number): number {
  return Math.max(0, Math.min(a1, b1) - Math.max(a0, b0));
}

/** The route part of the window's URL (`file:///…/index.html#/agents/x` → `#/agents/x`), or ''. */
export function screenOf(url: string): string {
  const i = url.indexOf('#');
  return i < 0 ? '' : url.slice(i);
}
