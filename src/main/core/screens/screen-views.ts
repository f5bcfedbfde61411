// The state each screen is shown (TableState), built from the parts passed in: the game table,
// the devices, the computer player, the odds, sharing and the settings. The TV gets the moves,
// never the computer's reasons or the odds; a LAN viewer never the pairing code or the devices.
// Every part that changes what a screen shows says so, and the listeners (the screens' pushers)
// are called once per change.
import type { GameView, LeagueView, PairedScreenView, ScreenKind, SharingView, TableState } from '@shared/api'
import type { CameraView } from '@shared/camera'
import type { DevicesView, SmartDiceView } from '@shared/devices'
import { GAMES } from '@shared/games'
import type { Offer } from '@shared/games/types'
import { computerSeats, moduleOf, offerOf, summaryOf, tableOf, type Game } from '@shared/game'
import { keypadHint, keypadLegend, keysForDecisions } from '@shared/keypad'
import type { Odds } from '@shared/odds'
import type { Settings } from '../files/settings'
import type { GameTable } from '../game/game-table'
import type { Notices } from './notices'
import type { Screen } from './screen'
import type { LanSharing } from './sharing-state'
import { Signal } from '../signal'

/** A part whose changes show on the screens. */
export interface Changing {
  subscribe(listener: () => void): () => void
}

export interface ViewSources {
  table: GameTable
  notices: Notices
  settings: { get(): Readonly<Settings> }
  /** Where the table is shared on the LAN; null where it cannot be (no server). */
  sharing: (Changing & { lan(): LanSharing | null }) | null
  pairing: { pairingCode: string; view(connected: ReadonlySet<string>): PairedScreenView[]; changes: Changing }
  /** The paired screens connected now. */
  pairedConnected: () => ReadonlySet<string>
  devices: Changing & { view(): DevicesView | null; smartDice(): SmartDiceView | null }
  /** The camera (every screen that may enter dice; the capture folder on the host's only). */
  camera?: { changes: Changing; view(local: boolean): CameraView }
  computer: Changing & { thinking(withReasons: boolean): { seat: number; text: string } | null }
  odds: Changing & { shown(game: Game): Odds | null }
  /** Anything else whose changes show (how far the chance-to-win tables are solved, the league). */
  others?: Changing[]
  /** The league, as the host's control screens show it. */
  league?: () => LeagueView
}

export class ScreenViews {
  private version = 0
  private readonly change = new Signal()
  /** The game as each kind of screen sees it, built once per change. */
  private readonly builtGameViews = new Map<ScreenKind, GameView>()

  constructor(private readonly sources: ViewSources) {
    const changed = (): void => this.changed()
    sources.table.subscribe(changed)
    sources.notices.changes.subscribe(changed)
    const changing = [sources.devices, sources.computer, sources.odds, sources.pairing.changes, ...(sources.sharing ? [sources.sharing] : []), ...(sources.camera ? [sources.camera.changes] : []), ...(sources.others ?? [])]
    for (const source of changing) source.subscribe(changed)
  }

  /** Listens for every change of what the screens show; returns a function that stops listening. */
  subscribe(listener: () => void): () => void {
    return this.change.subscribe(listener)
  }

  /** Something the screens show changed (a setting, the player list, a screen's own entry). */
  changed(): void {
    this.version++
    this.builtGameViews.clear()
    this.change.emit()
  }

  stateFor(screen: Pick<Screen, 'kind' | 'canControl' | 'local' | 'trust' | 'message'> & { entry: { typed: string } }): TableState {
    const { table, settings } = this.sources
    const game = table.current
    return {
      version: this.version,
      current: game ? this.gameView(game, screen.kind) : null,
      keypad: {
        buffer: screen.entry.typed,
        hint: game ? keypadHint(offerOf(game), game.header.players) : 'Start a game first',
        legend: keypadLegend(game?.header.game ?? null)
      },
      message: screen.message,
      recentPlayers: [...settings.get().recentPlayers],
      showOdds: settings.get().showOdds,
      canControl: screen.canControl,
      trust: screen.trust,
      sharing: this.sharingFor(screen.local),
      devices: screen.local && screen.kind === 'control' ? this.sources.devices.view() : null,
      smartDice: this.sources.devices.smartDice(),
      league: screen.local && screen.kind === 'control' && this.sources.league ? this.sources.league() : null,
      camera: screen.canControl && screen.kind === 'control' && this.sources.camera ? this.sources.camera.view(screen.local) : null
    }
  }

  /** Sharing as a screen sees it: the pairing code, its QR code and the paired screens on the host only. */
  private sharingFor(local: boolean): SharingView | null {
    const { sharing, pairing } = this.sources
    if (!sharing) return null
    const lan = sharing.lan()
    return {
      enabled: lan !== null,
      urls: lan?.urls ?? [],
      qrSvg: lan?.qrSvg ?? null,
      pairingCode: local && lan ? pairing.pairingCode : null,
      pairQrSvg: local ? (lan?.pairQrSvg ?? null) : null,
      paired: local ? pairing.view(this.sources.pairedConnected()) : []
    }
  }

  private gameView(game: Game, screen: ScreenKind): GameView {
    const built = this.builtGameViews.get(screen)
    if (built) return built
    const module = moduleOf(game)
    const offer = offerOf(game)
    const summary = summaryOf(game)
    const { playLog } = this.sources.table
    const view: GameView = {
      game: game.header.game,
      title: module.title,
      players: game.header.players,
      rules: { ...(GAMES[game.header.game].defaults as Record<string, unknown>), ...(game.header.rules ?? {}) },
      summary,
      standings: module.standings(game.state),
      offer,
      decisions: keysForDecisions(offer),
      table: tableOf(game),
      lastThrow: playLog.lastThrowView(game, offer, summary.finished),
      log: playLog.entries(screen),
      announcement: playLog.latestAnnouncement,
      moveCount: game.moves.length,
      startedAt: this.sources.table.startedAt(game),
      computers: computerSeats(game),
      ...this.sources.table.undoRedo(),
      thinking: thinkingOfActor(this.sources.computer.thinking(screen !== 'scoreboard'), offer),
      // The odds go to the control screens (the TV never shows them), when the table asked for them.
      odds: screen === 'control' && this.sources.settings.get().showOdds ? this.sources.odds.shown(game) : null
    }
    this.builtGameViews.set(screen, view)
    return view
  }
}

/**
 * What the computer is doing, shown only while its seat is one that acts now: every screen shows
 * one truth about whose turn it is, whatever the computer player still holds after a move it did
 * not make (never "Robo is thinking…" under "To play: Cara").
 */
function thinkingOfActor(thinking: { seat: number; text: string } | null, offer: Offer): { seat: number; text: string } | null {
  if (!thinking || offer.finished) return null
  const acting = offer.toPlay !== null ? [offer.toPlay] : offer.throwers
  return acting.includes(thinking.seat) ? thinking : null
}
