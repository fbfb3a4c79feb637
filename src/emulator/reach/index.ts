/** The emulator's reachable endpoints (SSH, notebook, forwarded ports): see create-reach.ts. */
export { createReach, type EmulatorReach, type ReachOptions } from './create-reach'
export { parseSshBackend } from './ssh-backend-option'
export type { NotebookCertificate } from './notebook-certificate'
