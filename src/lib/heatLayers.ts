// A heatmap's layers, named apart from the drawing code (lib/heat.ts): the heatmaps route checks
// its URL against them, and the route's file is part of the app's first load.

export type HeatLayer = 'all' | 'rage' | 'dead' | 'error';

export const HEAT_LAYERS: { layer: HeatLayer; label: string }[] = [
  { layer: 'all', label: 'All clicks' },
  { layer: 'rage', label: 'Rage clicks' },
  { layer: 'dead', label: 'Dead clicks' },
  { layer: 'error', label: 'Clicks followed by an error' },
];
