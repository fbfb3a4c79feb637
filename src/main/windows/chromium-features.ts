/**
 * Chromium features the app's window runs without. Electron's command line carries them
 * (src/main/index.ts, before ready), and the terminal benchmarks launch their browser with the
 * same switch (bench/terminal-rig.ts), so what they measure is the page as the app runs it.
 *
 * DeferRendererTasksAfterInput (on by default in current Chromium, policy "all types"): after a
 * key press the renderer holds back every other task of the page, network reads included, until
 * the next frame has been produced. For a web page that makes the key's own reaction paint
 * sooner; for a terminal the key's reaction IS a network read, the echo coming back from the
 * instance. A trace of bench/typing-latency.ts showed the echo's bytes reaching the renderer
 * ~4 ms after the key, waiting for the frame, then asking for a frame of their own: every echo
 * painted a whole frame (16.7 ms) later than it arrived, idle p50 31 ms against xterm alone's
 * 12 ms. Without the deferral the echo lands in the frame it arrives before.
 */
export const DISABLED_CHROMIUM_FEATURES: readonly string[] = ['DeferRendererTasksAfterInput']

/** The `disable-features` switch's name, as Electron's `app.commandLine` takes it (no dashes). */
export const DISABLE_FEATURES_SWITCH = 'disable-features'

/**
 * `existing` (a comma-separated list, maybe empty) with `added` joined in, each name once.
 * Chromium keeps only the last `--disable-features` of a command line, so a second switch
 * would drop the first one's names instead of adding to them.
 */
export function withFeatures(existing: string, added: readonly string[]): string {
  const names = existing
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '')
  for (const name of added) if (!names.includes(name)) names.push(name)
  return names.join(',')
}

/** The parts of Electron's `app.commandLine` this uses. */
export interface CommandLineLike {
  getSwitchValue(name: string): string
  appendSwitch(name: string, value?: string): void
}

/** Turns the features off on the app's command line, keeping any the user's launch already turned off. */
export function disableChromiumFeatures(commandLine: CommandLineLike): void {
  commandLine.appendSwitch(
    DISABLE_FEATURES_SWITCH,
    withFeatures(commandLine.getSwitchValue(DISABLE_FEATURES_SWITCH), DISABLED_CHROMIUM_FEATURES)
  )
}
