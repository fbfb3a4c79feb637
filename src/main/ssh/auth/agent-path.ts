/**
 * Which ssh-agent to ask, per platform: SSH_AUTH_SOCK wherever it is set; on Windows without
 * it, the OpenSSH agent's named pipe when that service runs, else Pageant (ssh2 speaks both).
 */
export const WINDOWS_OPENSSH_AGENT_PIPE = '\\\\.\\pipe\\openssh-ssh-agent'

export function agentPath(
  platform: NodeJS.Platform,
  env: Record<string, string | undefined>,
  exists: (path: string) => boolean
): string | undefined {
  const sock = env['SSH_AUTH_SOCK']
  if (sock) return sock
  if (platform !== 'win32') return undefined
  return exists(WINDOWS_OPENSSH_AGENT_PIPE) ? WINDOWS_OPENSSH_AGENT_PIPE : 'pageant'
}
