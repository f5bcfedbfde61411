// Which addresses are screens: the servers answer these with index.html and the router shows them.
import { describe, expect, it } from 'vitest'
import { isScoreboardPath, isScreenPath, SCREEN_PATHS } from '@shared/screen-paths'

describe('screen paths', () => {
  it('knows every screen’s address, with or without a slash at its end', () => {
    for (const path of ['/', '/setup', '/table', '/devices', '/camera', '/history', '/players', '/scoreboard', '/table/', '/scoreboard/']) {
      expect(isScreenPath(path), path).toBe(true)
    }
    expect(Object.keys(SCREEN_PATHS).sort()).toEqual(['camera', 'devices', 'history', 'home', 'player', 'players', 'scoreboard', 'setup', 'table'])
  })

  it('takes any one segment as a player’s name, as sent (still percent-encoded)', () => {
    for (const path of ['/players/Ann', '/players/AC%2FDC%20fan', '/players/Zo%C3%AB']) expect(isScreenPath(path), path).toBe(true)
    expect(isScreenPath('/players/AC/DC')).toBe(false)
    // The list itself, with a slash at its end.
    expect(isScreenPath('/players/')).toBe(true)
  })

  it('leaves every other path to the files of the build (or not found)', () => {
    for (const path of ['/index.html', '/assets/index.js', '/api', '/tables', '/table/extra', '/scoreboard.html', '//', '/..%2Fsecret', '/Table', '']) {
      expect(isScreenPath(path), path).toBe(false)
    }
  })

  it('tells the TV’s page from the others', () => {
    expect(isScoreboardPath('/scoreboard')).toBe(true)
    expect(isScoreboardPath('/scoreboard/')).toBe(true)
    for (const path of ['/', '/table', '/players/scoreboard', '/scoreboard/x']) expect(isScoreboardPath(path), path).toBe(false)
  })
})
