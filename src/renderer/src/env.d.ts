/// <reference types="svelte" />
/// <reference types="vite/client" />

// The File System Access API's folder picker and move(): in Chromium (and so Electron), not yet in TypeScript's DOM lib.
interface Window {
  showDirectoryPicker?(options?: { id?: string; mode?: 'read' | 'readwrite'; startIn?: string }): Promise<FileSystemDirectoryHandle>
}
interface FileSystemHandle {
  move?(newName: string): Promise<void>
}
