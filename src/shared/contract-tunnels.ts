/**
 * Port tunnels and "Open in your editor" (see contract.ts for the rules every command follows).
 *
 * A tunnel is a listener on this computer's 127.0.0.1 whose connections main carries to a port
 * inside the instance over the instance's shared SSH connection (SSH `direct-tcpip`, like
 * `ssh -L`). Tunnels are remembered per instance and come back when it runs again; the whole
 * list goes out as the `tunnels` event whenever it changes (byte counts at most once a second).
 */

/** What GPU users run, offered first. */
export const TUNNEL_PRESETS: readonly { port: number; label: string }[] = [
  { port: 8888, label: 'Jupyter' },
  { port: 6006, label: 'TensorBoard' },
  { port: 8000, label: 'vLLM / OpenAI API' },
  { port: 7860, label: 'Gradio' },
  { port: 8501, label: 'Streamlit' }
]

export type TunnelState =
  /** Listening; the SSH connection is being made (connections wait for it). */
  | 'starting'
  /** Listening and connected: connections go through. */
  | 'open'
  /** Listening; the SSH connection dropped and is being made again (connections wait). */
  | 'reconnecting'
  /** Remembered, not listening: the instance is not running yet (or the app is not signed in). */
  | 'waiting'
  /**
   * Not listening, for good: the instance stopped or failed, and the cloud has no call to start
   * it again. The window offers to remove the tunnel.
   */
  | 'ended'
  /** Listening, but the connection needs the user (e.g. a host key to check); connections are refused. */
  | 'failed'

export interface TunnelInfo {
  tunnelId: string
  instanceId: string
  instanceName: string
  /** The port inside the instance. */
  remotePort: number
  /** The preset's name for well-known ports, e.g. "Jupyter". */
  label?: string
  /** The local port while listening; the remembered one while waiting. */
  localPort: number
  /** `127.0.0.1:<localPort>`. */
  localAddress: string
  /** `http://127.0.0.1:<localPort>/`. */
  url: string
  state: TunnelState
  /** A line for the user: what the tunnel does now, or what went wrong and what to do. */
  message: string
  /** Set when the remembered local port was taken at restore and another one is used instead. */
  note?: string
  /** Connections open through it now. */
  connections: number
  /** Bytes from the instance to this computer, and from this computer to the instance. */
  bytesIn: number
  bytesOut: number
}

export type Editor = 'vscode' | 'cursor'

export interface TunnelCommands {
  'tunnels.list': { input: void; result: TunnelInfo[] }
  /**
   * Forwards `remotePort` inside the instance to `localPort` on 127.0.0.1: without `localPort`, the
   * same number when it is free, else any free port. A `localPort` already in use is refused with
   * `field: 'localPort'`; `tunnels.checkPort` offers another. A port already forwarded for the
   * instance answers the existing tunnel.
   */
  'tunnels.start': { input: { instanceId: string; remotePort: number; localPort?: number }; result: TunnelInfo }
  /** Stops a tunnel and forgets it (it will not come back). */
  'tunnels.stop': { input: { tunnelId: string }; result: void }
  /** Opens the tunnel's http address in the system browser. */
  'tunnels.open': { input: { tunnelId: string }; result: void }
  /** Whether a local port can be used now, and a free one to offer instead. */
  'tunnels.checkPort': { input: { localPort: number }; result: { free: boolean; suggestion: number } }
  /** Which editors "Open in …" can use on this computer (VS Code is always offered). */
  'editor.available': { input: void; result: { editors: Editor[] } }
  /**
   * Opens the instance in the editor over Remote-SSH, through the instance's Host block in
   * ~/.ssh/config: the block must be written first (ssh.configPreview / ssh.configWrite), else
   * this fails with `field: 'config'`. The editor URL is built by main from checked values.
   */
  'editor.open': { input: { instanceId: string; editor: Editor }; result: { url: string } }
}

export interface TunnelEvents {
  tunnels: TunnelInfo[]
}
