// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest'
import { flushPromises } from '@vue/test-utils'
import TvScreen from '@renderer/scoreboard/TvScreen.vue'
import { FakeTableApi, farkleGame, foursiesGame, foursiesSummary, stateWith } from '../fixtures'
import { mountWith } from '../mountWith'

describe('TvScreen', () => {
  afterEach(() => vi.useRealTimers())

  it('waits calmly when no game is on', async () => {
    const wrapper = await mountWith(TvScreen, new FakeTableApi())
    expect(wrapper.find('[data-testid="waiting"]').text()).toContain('Waiting for a game')
    // Only the options toggle, hidden until a mouse moves.
    expect(wrapper.findAll('button').map((button) => button.attributes('data-testid'))).toEqual(['tv-options'])
  })

  it('shows every Foursies score with round and tour wins, the tab and who is to play', async () => {
    const wrapper = await mountWith(TvScreen, new FakeTableApi(stateWith(foursiesGame())))
    const bob = wrapper.find('[data-testid="score-Bob"]')
    expect(bob.find('[data-testid="points"]').text()).toBe('1')
    expect(bob.find('[data-testid="rounds"]').text()).toBe('2')
    expect(bob.find('[data-testid="tours"]').text()).toBe('1')
    expect(bob.attributes('data-current')).toBe('true')
    expect(wrapper.find('[data-testid="score-Ann"]').attributes('data-current')).toBe('false')
    expect(wrapper.find('[data-testid="score-Cy"] [data-testid="tab-marker"]').exists()).toBe(true)
    expect(wrapper.findAll('[data-testid="tab-marker"]')).toHaveLength(1)
    expect(wrapper.find('[data-testid="to-play"]').text()).toBe('Bob')
    expect(wrapper.find('[data-testid="phase"]').text()).toBe('Round 2 · Tour 1')
    expect(wrapper.find('[data-testid="player-note"]').text()).toBe('1 throw fewer')
    const dice = wrapper.find('[data-testid="scoreboard-dice"]').findAll('[data-testid="die"]')
    expect(dice.map((die) => die.attributes('data-value'))).toEqual(['2', '2', '1', '5'])
    expect(dice.map((die) => die.attributes('data-fresh'))).toEqual(['true', 'true', 'false', 'true'])
    // Only the options toggle, hidden until a mouse moves.
    expect(wrapper.findAll('button').map((button) => button.attributes('data-testid'))).toEqual(['tv-options'])
  })

  it('names the duellists when nobody is to play alone', async () => {
    const game = foursiesGame({ summary: foursiesSummary({ toPlay: null }) })
    game.table = { ...game.table, contenders: [0, 2], phase: 'Duel' }
    const wrapper = await mountWith(TvScreen, new FakeTableApi(stateWith(game)))
    expect(wrapper.find('[data-testid="to-play"]').text()).toBe('Ann vs Cy')
    expect(wrapper.find('[data-testid="score-Ann"]').attributes('data-current')).toBe('true')
  })

  it('shows Farkle scores, the turn points and the set-aside dice apart', async () => {
    const wrapper = await mountWith(TvScreen, new FakeTableApi(stateWith(farkleGame())))
    expect(wrapper.find('[data-testid="score-Ann"] [data-testid="points"]').text()).toBe('1,250')
    expect(wrapper.find('[data-testid="score-Ann"] [data-testid="turn-points"]').text()).toBe('+350')
    expect(wrapper.find('[data-testid="rounds"]').exists()).toBe(false)
    expect(wrapper.find('[data-testid="dice-set-aside"]').findAll('[data-testid="die"]')).toHaveLength(1)
  })

  it('shows each new announcement for a while', async () => {
    vi.useFakeTimers()
    const api = new FakeTableApi(stateWith(foursiesGame()))
    const wrapper = await mountWith(TvScreen, api)
    expect(wrapper.find('[data-testid="announcement"]').exists()).toBe(false)

    api.push(stateWith(foursiesGame({ announcement: { text: 'Bust!', kind: 'bust', id: 4 } }), { version: 3 }))
    await flushPromises()
    expect(wrapper.find('[data-testid="announcement"]').text()).toBe('Bust!')

    vi.advanceTimersByTime(2600) // shown 2.5 s, then it fades out for 0.3 s
    await flushPromises()
    expect(wrapper.find('[data-testid="announcement"]').classes()).toContain('is-leaving')
    vi.advanceTimersByTime(300)
    await flushPromises()
    expect(wrapper.find('[data-testid="announcement"]').exists()).toBe(false)

    // The same announcement again (another change elsewhere) does not come back; a new id does.
    api.push(stateWith(foursiesGame({ announcement: { text: 'Bust!', kind: 'bust', id: 4 } }), { version: 4 }))
    await flushPromises()
    expect(wrapper.find('[data-testid="announcement"]').exists()).toBe(false)
    api.push(stateWith(foursiesGame({ announcement: { text: 'Foursies!', kind: 'foursies', id: 5 } }), { version: 5 }))
    await flushPromises()
    expect(wrapper.find('[data-testid="announcement"]').text()).toBe('Foursies!')
  })

  it('shows the winners when the game is over, or that nobody won', async () => {
    const finished = foursiesGame({ summary: foursiesSummary({ finished: true, winners: ['Bob'], toPlay: null }) })
    const api = new FakeTableApi(stateWith(finished))
    const wrapper = await mountWith(TvScreen, api)
    expect(wrapper.find('[data-testid="winner-screen"] [data-testid="winner-names"]').text()).toBe('Bob')

    api.push(stateWith(foursiesGame({ summary: foursiesSummary({ finished: true, winners: [], toPlay: null }) }), { version: 9 }))
    await flushPromises()
    expect(wrapper.find('[data-testid="winner-names"]').text()).toBe('No winner')
  })

  it('at the end says how the game ended: the last line’s events and its dice, which decided it', async () => {
    // Cy busts in the last lap: Ann, on 4, wins the round and the match with that line.
    const finished = foursiesGame({
      summary: foursiesSummary({ finished: true, winners: ['Ann'], toPlay: null }),
      offer: { finished: true, toPlay: null, throwers: [], diceDue: 0, decisions: [], blocked: [] },
      lastThrow: { line: 9, throwers: ['Cy'], values: [4, 4, 4, 2], dice: [4, 4, 4, 2].map((value) => ({ value, fresh: true })), current: false, caption: 'Cy’s last throw' },
      log: [
        { line: 8, text: 'Cy takes socks: two throws of all four dice', kind: 'socks', seat: 2 },
        { line: 9, text: 'Cy throws 4 4 4 2', kind: 'throw', seat: 2, dice: '4 4 4 2' },
        { line: 9, text: 'Bust! Cy stays on 2', kind: 'bust', seat: 2, dice: '4 4 4 2' },
        { line: 9, text: 'Ann wins the round', kind: 'roundWon', seat: 0, dice: '4 4 4 2' },
        { line: 9, text: 'Ann wins the match', kind: 'matchWon', seat: 0, dice: '4 4 4 2' }
      ]
    })
    const wrapper = await mountWith(TvScreen, new FakeTableApi(stateWith(finished)))
    const ending = wrapper.find('[data-testid="ending"]')
    // The throw is shown as its dice, with who threw them; the rest in the log's words.
    expect(ending.findAll('[data-testid="ending-event"]').map((event) => event.text())).toEqual(['Bust! Cy stays on 2', 'Ann wins the round', 'Ann wins the match'])
    expect(ending.find('[data-testid="ending-dice"]').findAll('[data-testid="die"]').map((die) => die.attributes('data-value'))).toEqual(['4', '4', '4', '2'])
    expect(ending.text()).toContain('Cy’s last throw')
  })

  it('at the end shows a shared place as a tie with its reason, and marks the computer’s seats', async () => {
    const finished = foursiesGame({
      summary: foursiesSummary({ finished: true, winners: ['Bob'], toPlay: null }),
      computers: [2],
      standings: [
        { name: 'Bob', place: 1, shown: '1 tour · 2 rounds', winner: true },
        { name: 'Ann', place: 2, shown: '0 tours · 0 rounds', winner: false, why: 'tied on tours, rounds and last-round points' },
        { name: 'Cy', place: 2, shown: '0 tours · 0 rounds', winner: false, why: 'tied on tours, rounds and last-round points' }
      ]
    })
    const wrapper = await mountWith(TvScreen, new FakeTableApi(stateWith(finished)))
    expect(wrapper.findAll('[data-testid="standing-place"]').map((place) => place.text())).toEqual(['1st', '2nd =', '2nd ='])
    expect(wrapper.findAll('[data-testid="standing-why"]').map((why) => why.text())).toEqual([
      'tied on tours, rounds and last-round points',
      'tied on tours, rounds and last-round points'
    ])
    const cy = wrapper.findAll('[data-testid="standing"]')[2]
    expect(cy.find('[data-testid="computer-marker"]').exists()).toBe(true)
    expect(wrapper.findAll('[data-testid="computer-marker"]')).toHaveLength(1)
  })

  it('marks the computer’s seats in the scores and when one is to play, and a player who is out only as out', async () => {
    const game = farkleGame({ computers: [0], table: { ...farkleGame().table, notes: { 0: 'on the board', 1: 'out' } } })
    game.summary = { ...game.summary, players: [{ ...game.summary.players[0] }, { ...game.summary.players[1], out: true }] }
    const wrapper = await mountWith(TvScreen, new FakeTableApi(stateWith(game)))
    expect(wrapper.find('[data-testid="score-Ann"]').attributes('data-computer')).toBe('true')
    expect(wrapper.find('[data-testid="score-Ann"] [data-testid="computer-marker"]').text()).toBe('CPU')
    expect(wrapper.find('[data-testid="score-Bob"] [data-testid="computer-marker"]').exists()).toBe(false)
    expect(wrapper.find('[data-testid="to-play-label"]').text()).toBe('To play · computer')
    // Bob is out: the OUT badge says it, and no note goes under his name.
    expect(wrapper.find('[data-testid="score-Bob"] [data-testid="out-marker"]').exists()).toBe(true)
    expect(wrapper.find('[data-testid="score-Bob"] [data-testid="player-note"]').exists()).toBe(false)
    expect(wrapper.find('[data-testid="score-Ann"] [data-testid="player-note"]').text()).toBe('on the board')
  })
})
