import { mount } from 'svelte'
// Before any component, so a component's own rules come after the global ones.
import './styles/global.css'
import App from './App.svelte'

const target = document.getElementById('app')
if (!target) throw new Error('#app is missing from index.html')

export default mount(App, { target })
