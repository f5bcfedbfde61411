// The registry (src/shared/games/index.ts): each game once, under the id its records use, with a
// folder of that name holding its definition.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { GAME_IDS, GAMES, isGameId } from '@shared/games'
import { repoPath } from '@test/kit/root'

const GAMES_FOLDER = repoPath('src', 'shared', 'games')

describe('the games registry', () => {
  it('lists the games in the order the Setup screen offers them', () => {
    expect(GAME_IDS).toEqual(['foursies', 'farkle', 'fouche', 'four-plus'])
  })

  it.each(GAME_IDS)('%s: is registered under its own id, from its own folder', (id) => {
    expect(GAMES[id].id).toBe(id)
    expect(existsSync(join(GAMES_FOLDER, id, 'index.ts'))).toBe(true)
  })

  it('knows a game id from anything else', () => {
    expect(GAME_IDS.every(isGameId)).toBe(true)
    expect(['chess', 'toString', 'constructor', '', 4, null].some(isGameId)).toBe(false)
  })
})
