/**
 * The emulator for bench/list-all-instances.ts, in its own process (as the real cloud is on
 * another machine): starts on a free loopback port, seeds the instances, and sends the base URL
 * to the parent over IPC. Exits when the parent disconnects.
 */
import { startEmulator } from '../src/emulator'

const count = Number(process.argv[2] ?? '1000')
const emulator = await startEmulator({ port: 0 })
await emulator.control.seedInstances('demo', count)
process.send?.({ baseUrl: emulator.baseUrl })
process.on('disconnect', () => {
  void emulator.close().finally(() => process.exit(0))
})
