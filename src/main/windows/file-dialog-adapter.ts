/**
 * Files the user keeps (an exported launch template) through Electron's save and open dialogs:
 * the Platform's `saveFile` and `openFile` in the desktop app. What is written is written
 * atomically; what is read is bounded before it is read.
 */
import { stat, readFile } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { app, dialog, type OpenDialogOptions, type SaveDialogOptions } from 'electron'
import { writeFileAtomic } from '../../shared/node/atomic-write'
import { AppError } from '../app-error'
import type { SavedFile } from '../core-types'
import { dialogParent } from './dialog-parent-adapter'

const filters = (extensions: string[]) => [
  { name: extensions.map((extension) => extension.toUpperCase()).join(', '), extensions },
  { name: 'All files', extensions: ['*'] }
]

export async function saveFileWithDialog(file: SavedFile): Promise<string | null> {
  const options: SaveDialogOptions = {
    title: file.title,
    defaultPath: join(app.getPath('documents'), file.defaultName),
    filters: filters(file.extensions)
  }
  const parent = dialogParent()
  const { canceled, filePath } = parent ? await dialog.showSaveDialog(parent, options) : await dialog.showSaveDialog(options)
  if (canceled || !filePath) return null
  // A file the user keeps and may open elsewhere: readable by them as any document is.
  await writeFileAtomic(filePath, file.text, 0o644)
  return filePath
}

export async function openFileWithDialog(request: {
  title: string
  maxBytes: number
  extensions: string[]
}): Promise<{ name: string; text: string } | null> {
  const options: OpenDialogOptions = { title: request.title, properties: ['openFile'], filters: filters(request.extensions) }
  const parent = dialogParent()
  const { canceled, filePaths } = parent ? await dialog.showOpenDialog(parent, options) : await dialog.showOpenDialog(options)
  const path = filePaths[0]
  if (canceled || !path) return null
  const { size } = await stat(path)
  if (size > request.maxBytes)
    throw new AppError('io', `${basename(path)} is ${Math.ceil(size / 1024)} KiB: too large for a launch template. Nothing was imported.`)
  return { name: basename(path), text: await readFile(path, 'utf8') }
}
