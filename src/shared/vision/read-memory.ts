// What the frames of one throw share, worked out once instead of once a frame.
//
// A throw is read from a few frames taken after the scene went still (throw-reader.ts): by the
// stillness test they show the same tray and the same dice, up to a camera's noise. What depends
// only on that scene is made from the first frame read and kept for the others: the tray found
// in the picture, and the floor's colour around each pixel (the mask's background, a median over
// a window of a few dice, which noise does not move). Each frame's dice, faces and pips are
// still read from its own pixels, so the vote still compares independent readings. The warp
// maps that make the tray flat depend on the tray's corners only: they last while those stay
// (a calibrated tray: as long as the camera).
// Hand-written: a small keyed store; OpenCV's Mats in it are freed when the scene changes.
export class ReadMemory {
  private readonly scene = new Map<string, { value: unknown; dispose?: (value: unknown) => void }>()
  private readonly lasting = new Map<string, { key: string; value: unknown; dispose?: (value: unknown) => void }>()

  /** What this scene (this throw's still frames) holds under `key`, made the first time. */
  ofScene<T>(key: string, make: () => T, dispose?: (value: T) => void): T {
    const kept = this.scene.get(key)
    if (kept) return kept.value as T
    const value = make()
    this.scene.set(key, { value, dispose: dispose as ((value: unknown) => void) | undefined })
    return value
  }

  /** One value of a kind, kept while its key stays the same (made again, the old one freed, when it changes). */
  lastingWhile<T>(kind: string, key: string, make: () => T, dispose?: (value: T) => void): T {
    const kept = this.lasting.get(kind)
    if (kept && kept.key === key) return kept.value as T
    kept?.dispose?.(kept.value)
    const value = make()
    this.lasting.set(kind, { key, value, dispose: dispose as ((value: unknown) => void) | undefined })
    return value
  }

  /** The scene changed (the dice moved): what was kept for it is freed. */
  newScene(): void {
    for (const { value, dispose } of this.scene.values()) dispose?.(value)
    this.scene.clear()
  }

  /** Frees everything kept. */
  forget(): void {
    this.newScene()
    for (const { value, dispose } of this.lasting.values()) dispose?.(value)
    this.lasting.clear()
  }
}
