/**
 * The house's layers are ESLint rules (eslint.config.js, scripts/eslint-layers.js), run over the
 * tree by `npm run lint`. This proves the rules can fail: each line of a would-be file in one
 * layer, importing from another, is linted as ESLint sees it at that path, in each form an
 * import takes (import, export … from, import(), require(), a component's script). Between the
 * top-level folders; inside main (commands/ and core.ts above every part, core-types.ts on
 * src/shared alone, windows/ below notebook/, one door to the emulator); Electron only in its
 * adapters; and core.ts read top to bottom.
 */
import { join } from 'node:path'
import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'
import { ROOT } from './import-graph'

const eslint = new ESLint({ cwd: ROOT })

/** The rules that fired for `source` as if it were the file at `path` (relative to the repo). */
async function rulesFor(path: string, source: string): Promise<string[]> {
  const text = path.endsWith('.svelte')
    ? `<script lang="ts">\n  ${source}\n</script>\n<p>{imported}</p>\n`
    : `${source}\nexport const used = imported\n`
  const [result] = await eslint.lintText(text, { filePath: join(ROOT, path) })
  return (result?.messages ?? []).map((message) => message.ruleId ?? message.message)
}

const LAYER = 'house/layers'
const TEST_CODE = 'no-restricted-imports'

describe('the layer rules', () => {
  it.each([
    ['src/shared/probe.ts', "import * as imported from '../main/core'", LAYER],
    ['src/shared/probe.ts', "import * as imported from '../emulator/index'", LAYER],
    ['src/emulator/probe.ts', "import * as imported from '../main/core'", LAYER],
    ['src/renderer/src/lib/probe.ts', "import * as imported from '../../../main/core'", LAYER],
    ['src/renderer/src/lib/probe.ts', "import * as imported from '../../../shared/node/secret'", LAYER],
    ['src/preload/probe.ts', "import * as imported from '../main/core'", LAYER],
    ['src/main/probe.ts', "import * as imported from '../web/server'", LAYER],
    ['src/web/probe.ts', "import * as imported from '../emulator/index'", LAYER],
    ['src/shared/web/probe.ts', "export * from '../../main/core'\nconst imported = 1", LAYER],
    ['src/emulator/probe.ts', "const imported = await import('../main/core')", LAYER],
    ['src/renderer/src/views/Probe.svelte', "import * as imported from '../../../main/core'", LAYER],
    // Walls inside main.
    ['src/main/windows/main-window-adapter.ts', "import * as imported from '../commands/app'", LAYER],
    ['src/main/notebook/probe.ts', "import * as imported from '../core'", LAYER],
    ['src/main/cost/probe.ts', "import * as imported from '../commands/dispatcher'", LAYER],
    ['src/main/ssh/links/probe.ts', "const imported = await import('../../commands/ssh')", LAYER],
    ['src/main/probe.ts', "export * from './commands/index'\nconst imported = 1", LAYER],
    ['src/main/core-types.ts', "import type * as imported from './account/sandbox'", LAYER],
    ['src/main/windows/quit-adapter.ts', "import type * as imported from '../notebook/notebook-window-adapter'", LAYER],
    ['src/main/account/account.ts', "const imported = await import('../../emulator/index')", LAYER],
    ['src/main/probe.ts', "import * as imported from '../emulator/reach/index'", LAYER],
    // Electron only in its adapters: index.ts in any other folder is no exception.
    ['src/main/cloud/index.ts', "import * as imported from 'electron'", LAYER],
    ['src/main/probe.ts', "import type * as imported from 'electron/main'", LAYER],
    ['src/main/tray/tray-model.ts', "const imported = await import('electron')", LAYER],
    ['src/main/watch/probe.ts', "const imported = require('electron')", LAYER],
    ['src/renderer/src/lib/probe.ts', "import * as imported from 'electron'", LAYER],
    ['src/main/probe.ts', "import * as imported from '../shared/testing/instance'", TEST_CODE],
    ['src/renderer/src/lib/probe.ts', "import * as imported from 'vitest'", TEST_CODE],
    ['src/emulator/probe.ts', "import * as imported from 'fast-check'", TEST_CODE],
    ['src/renderer/src/lib/probe.ts', "import * as imported from '../instances/instances.svelte'", LAYER],
    ['src/renderer/src/lib/probe.ts', "import * as imported from '../ui/Field.svelte'", LAYER],
    ['src/renderer/src/ui/Probe.svelte', "import * as imported from '../cost/cost.svelte'", LAYER],
    ['src/renderer/src/ui/Probe.svelte', "import * as imported from '../views/Settings.svelte'", LAYER],
    ['src/renderer/src/cost/Probe.svelte', "import * as imported from '../views/Settings.svelte'", LAYER]
  ])('refuse %s: %s', async (path, source, rule) => {
    expect(await rulesFor(path, source)).toContain(rule)
  })

  it.each([
    ['src/main/account/sandbox-emulator.ts', "import * as imported from '../../emulator/index'"],
    ['src/main/core.ts', "import * as imported from './commands/index'"],
    ['src/main/index.ts', "import * as imported from './core'"],
    ['src/main/commands/probe.ts', "import * as imported from './dispatcher'"],
    ['src/main/notebook/probe.ts', "import * as imported from '../windows/leave-policy'"],
    ['src/main/index.ts', "import * as imported from 'electron'"],
    ['src/main/tray/tray-adapter.ts', "import * as imported from 'electron'"],
    ['src/preload/index.ts', "import * as imported from 'electron'"],
    ['src/main/probe.ts', "import * as imported from 'electron-builder'"],
    ['src/web/probe.ts', "import * as imported from '../main/core'"],
    ['src/renderer/src/lib/probe.ts', "import * as imported from '../../../shared/instance-rules'"],
    ['src/main/probe.test.ts', "import * as imported from '../shared/testing/instance'"],
    ['src/emulator/probe.test.ts', "import * as imported from '../main/ssh/testing/openssh-server'"],
    ['src/renderer/src/cost/Probe.svelte', "import * as imported from '../instances/instances.svelte'"],
    ['src/renderer/src/ui/Probe.svelte', "import * as imported from '../lib/bridge'"]
  ])('allow %s: %s', async (path, source) => {
    const fired = await rulesFor(path, source)
    expect(fired.filter((rule) => rule === LAYER || rule === TEST_CODE)).toEqual([])
  })

  it('core.ts reads top to bottom: a part used before the line that builds it is refused', async () => {
    const forward = 'export function wire() {\n  const tray = () => imported\n  const imported = 1\n  return tray\n}\nconst imported = 1'
    expect(await rulesFor('src/main/core.ts', forward)).toContain('@typescript-eslint/no-use-before-define')
    const inOrder = 'export function wire() {\n  const guard = 1\n  const tray = () => guard\n  return tray\n}\nconst imported = 1'
    expect(await rulesFor('src/main/core.ts', inOrder)).not.toContain('@typescript-eslint/no-use-before-define')
  })
})
