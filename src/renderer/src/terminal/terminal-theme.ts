/**
 * Terminal colours that follow the app theme. Both palettes keep the 16 ANSI colours readable
 * on their background (the dim ones are lifted on dark, deepened on light).
 */
import type { ITheme } from '@xterm/xterm'

export const DARK_THEME: ITheme = {
  background: '#11151b',
  foreground: '#e7ecf3',
  cursor: '#6ea2ff',
  cursorAccent: '#11151b',
  selectionBackground: '#2c4a7d',
  black: '#1a2029',
  red: '#ff7b72',
  green: '#7ee2a0',
  yellow: '#f2cc60',
  blue: '#79a8ff',
  magenta: '#d2a8ff',
  cyan: '#76e3ea',
  white: '#c9d1d9',
  brightBlack: '#8b949e',
  brightRed: '#ffa198',
  brightGreen: '#a5f0bf',
  brightYellow: '#ffe08a',
  brightBlue: '#a5c6ff',
  brightMagenta: '#e2c5ff',
  brightCyan: '#b3f0f5',
  brightWhite: '#ffffff'
}

export const LIGHT_THEME: ITheme = {
  background: '#ffffff',
  foreground: '#17202b',
  cursor: '#1f5fd1',
  cursorAccent: '#ffffff',
  selectionBackground: '#c7d9f8',
  black: '#17202b',
  red: '#b3261e',
  green: '#1a7f37',
  yellow: '#7d5a00',
  blue: '#1f5fd1',
  magenta: '#8250df',
  cyan: '#0b7285',
  white: '#4f5b6b',
  brightBlack: '#57606a',
  brightRed: '#cf222e',
  brightGreen: '#116329',
  brightYellow: '#633c01',
  brightBlue: '#0550ae',
  brightMagenta: '#6f42c1',
  brightCyan: '#075e6c',
  brightWhite: '#24292f'
}

/** The system's UI monospace where it has one, else a common programmer's font. */
export const TERMINAL_FONT_FAMILY = "ui-monospace, 'SFMono-Regular', 'DejaVu Sans Mono', Menlo, Consolas, monospace"

/** WCAG AA for text: xterm lifts any remote colour pair below it (ls colours on a light theme). */
export const MINIMUM_CONTRAST_RATIO = 4.5

export function terminalTheme(theme: 'light' | 'dark'): ITheme {
  return theme === 'dark' ? DARK_THEME : LIGHT_THEME
}

export const MIN_FONT_SIZE = 8
export const MAX_FONT_SIZE = 32

export function clampFontSize(size: number): number {
  return Math.min(MAX_FONT_SIZE, Math.max(MIN_FONT_SIZE, Math.round(size)))
}
