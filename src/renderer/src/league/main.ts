// The league page (/_league/) and the league TV (/_league/tv): an entry of its own, served by the
// league host and by a table that joined a league (src/main/league/league-routes.ts).
import { createApp } from 'vue'
import { createPinia } from 'pinia'
import LeagueApp from './LeagueApp.vue'
import '../styles/base.css'

createApp(LeagueApp).use(createPinia()).mount('#app')
