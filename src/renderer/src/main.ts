import { createApp } from 'vue'
import { createPinia } from 'pinia'
import { createWebHistory } from 'vue-router'
import App from './App.vue'
import { createAppRouter } from './router'
import './styles/base.css'

const router = createAppRouter(createWebHistory())
const app = createApp(App).use(createPinia()).use(router)
// The first screen is known before anything is drawn (the control shell reads it when main's state comes).
void router.isReady().then(() => app.mount('#app'))
