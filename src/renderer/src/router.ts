import { createRouter, type Router, type RouterHistory, type RouteRecordRaw } from 'vue-router'
import { SCREEN_PATHS, type ScreenName } from '@shared/screen-paths'
import ControlShell from './ControlShell.vue'
import SetupScreen from './setup/SetupScreen.vue'
import TableScreen from './table/TableScreen.vue'
import DevicesScreen from './devices/DevicesScreen.vue'
import CameraScreen from './camera/CameraScreen.vue'
import HistoryScreen from './history/HistoryScreen.vue'
import PlayersScreen from './players/PlayersScreen.vue'
import PlayerPageScreen from './players/PlayerPageScreen.vue'
import TvScreen from './scoreboard/TvScreen.vue'

/** The control app's tabs, in the order they are shown. */
export type ControlTab = Extract<ScreenName, 'setup' | 'table' | 'devices' | 'camera' | 'history' | 'players'>

declare module 'vue-router' {
  interface RouteMeta {
    /** The tab lit while this screen is shown. */
    tab?: ControlTab
  }
}

/** `/` shows nothing of its own: the control shell opens the Table or Setup in its place once main's state is known. */
const ControlHome = { name: 'ControlHome', render: () => null }

const routes: RouteRecordRaw[] = [
  { path: SCREEN_PATHS.scoreboard, name: 'scoreboard', component: TvScreen },
  {
    path: '/',
    component: ControlShell,
    children: [
      { path: SCREEN_PATHS.home, name: 'home', component: ControlHome },
      { path: SCREEN_PATHS.setup, name: 'setup', component: SetupScreen, meta: { tab: 'setup' } },
      { path: SCREEN_PATHS.table, name: 'table', component: TableScreen, meta: { tab: 'table' } },
      { path: SCREEN_PATHS.devices, name: 'devices', component: DevicesScreen, meta: { tab: 'devices' } },
      { path: SCREEN_PATHS.camera, name: 'camera', component: CameraScreen, meta: { tab: 'camera' } },
      { path: SCREEN_PATHS.history, name: 'history', component: HistoryScreen, meta: { tab: 'history' } },
      { path: SCREEN_PATHS.players, name: 'players', component: PlayersScreen, meta: { tab: 'players' } },
      { path: SCREEN_PATHS.player, name: 'player', component: PlayerPageScreen, props: true, meta: { tab: 'players' } }
    ]
  },
  // An address no screen has (`/index.html`, or one the Electron dev server answers): the control app.
  { path: '/:unknown(.*)*', redirect: (to) => ({ path: SCREEN_PATHS.home, query: to.query }) }
]

/**
 * The router of the screens: web history in the page (the servers answer every screen's address
 * with index.html), memory history in the tests.
 */
export function createAppRouter(history: RouterHistory): Router {
  const router = createRouter({
    history,
    routes,
    // A screen opens at its top; Back and Forward return to where it was left.
    scrollBehavior: (_to, _from, saved) => saved ?? { top: 0 }
  })
  return router
}
