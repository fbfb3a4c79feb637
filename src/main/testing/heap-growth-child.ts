/**
 * A process playing main for heap-growth.test.ts: with `pinned` as its argument it sets main's
 * heap growth as the shells do (without it, it runs as main did before, to see the regime). Then
 * it floods a terminal through the app's SSH session from a Debian sshd (the MiB in its second
 * argument) and prints one JSON line: the bytes that arrived and the full collections met
 * meanwhile. A process of its own, because the regime depends on the process's heap, and a test
 * worker's is neither main's size nor fresh.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pinMainHeapGrowth } from '../heap-growth'
import { OpenSshServer } from '../ssh/testing/openssh-server'
import { floodThroughApp } from '../ssh/testing/terminal-flood'
import { countFullCollections } from './full-collections'

if (process.argv[2] === 'pinned') pinMainHeapGrowth()
const bytes = Number(process.argv[3]) * 1024 * 1024
const server = new OpenSshServer()
const scratch = mkdtempSync(join(tmpdir(), 'cloudtray-heap-growth-'))
try {
  await server.start()
  const fullCollections = countFullCollections()
  const flood = await floodThroughApp(server, scratch, bytes)
  console.log(JSON.stringify({ bytes: flood.bytes, fullCollections: fullCollections() }))
} finally {
  await server.dispose()
  rmSync(scratch, { recursive: true, force: true })
}
