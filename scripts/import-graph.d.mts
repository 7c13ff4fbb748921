import type { ESLint } from 'eslint';

export interface Layer {
  layer: string;
  holds: string[];
}
export const SERVER_LAYERS: Layer[];
export function layerIndex(rel: string, layers?: Layer[]): number;
export function importsOf(file: string, text?: string): string[];
export function cycleThrough(file: string, text?: string): string[] | null;
export function sourcesUnder(folder: string): string[];
export function upwardImports(root: string, layers?: Layer[]): string[];
export const importGraphPlugin: ESLint.Plugin;
