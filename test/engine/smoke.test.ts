import { describe, it, expect } from 'vitest'
import { GAME_IDS } from '../../src/shared/engine/types'

describe('engine types', () => {
  it('names the four games of the record format', () => {
    expect(GAME_IDS).toEqual(['foursies', 'farkle', 'fouche', 'four-plus'])
  })
})
