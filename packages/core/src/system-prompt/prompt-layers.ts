/** A base prompt in layers: a default, one per mode, and a project's own that overrides both. */
export interface PromptLayers {
  default?: string;
  modes?: Readonly<Record<string, string>>;
  project?: string;
}

/** The layer that wins: the project override, then the mode's prompt, then the default (else ''). */
export function resolvePromptLayers(layers: PromptLayers, mode?: string): string {
  if (layers.project !== undefined) return layers.project;
  const forMode = mode === undefined ? undefined : layers.modes?.[mode];
  return forMode ?? layers.default ?? '';
}
