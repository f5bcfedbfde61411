// Each game's options as data (src/shared/games/<game>/descriptor.ts) agree with what its
// engine's parseOptions accepts, so the Setup screen, which builds its form from that data,
// offers exactly the rules.
import { describe, expect, it } from 'vitest'
import { GAME_IDS, GAMES } from '@shared/games'
import { optionDefaults } from '@shared/games/options'

describe.each(GAME_IDS)('%s options', (id) => {
  const module = GAMES[id]
  const descriptor = GAMES[id]
  const players = 3

  it('is registered under its own id, with a title, a player minimum and its dice', () => {
    expect(module.id).toBe(id)
    expect([module.title.length > 0, module.minPlayers >= 1, module.diceCount >= 1 && module.diceCount <= 6]).toEqual([true, true, true])
  })

  it('defaults are what the engine takes for a header without rules, in the same key order', () => {
    const parsed = module.parseOptions(undefined, players)
    expect(parsed.ok && JSON.stringify(parsed.value)).toBe(JSON.stringify(optionDefaults(descriptor.options)))
    expect(JSON.stringify(module.defaults)).toBe(JSON.stringify(optionDefaults(descriptor.options)))
    expect(module.parseOptions(optionDefaults(descriptor.options), players)).toEqual(parsed)
  })

  it('every value the form offers is accepted, and a value outside it refused', () => {
    for (const option of descriptor.options) {
      const accepts = (value: unknown): boolean => module.parseOptions({ [option.key]: value }, players).ok
      switch (option.kind) {
        case 'choice':
          for (const choice of option.choices) expect(accepts(choice.value), `${option.key}=${choice.value}`).toBe(true)
          expect(accepts('no-such-value')).toBe(false)
          break
        case 'number':
          expect(accepts(option.min)).toBe(true)
          expect(accepts(option.min + option.step)).toBe(true)
          expect(accepts(option.min - 1)).toBe(false)
          expect(accepts(option.min + 0.5)).toBe(false)
          break
        case 'seat':
          for (let seat = 0; seat < players; seat++) expect(accepts(seat)).toBe(true)
          expect(accepts(players)).toBe(false)
          expect(accepts(0.5)).toBe(false)
          break
      }
    }
  })

  it('a refusal quotes a number too large for JSON text (1e400 is read as Infinity) as Infinity, not null', () => {
    for (const option of descriptor.options) {
      const parsed = module.parseOptions({ [option.key]: Number.POSITIVE_INFINITY }, players)
      expect(parsed.ok ? 'accepted' : parsed.error, option.key).toMatch(/Infinity/)
    }
  })

  it('no rule of the engine is missing from the form', () => {
    const keys = descriptor.options.map((option) => option.key)
    expect(module.parseOptions({ [`${keys.join('')}x`]: 1 }, players).ok).toBe(false)
    const parsed = module.parseOptions(undefined, players)
    expect(parsed.ok && Object.keys(parsed.value as object)).toEqual(keys)
  })
})
