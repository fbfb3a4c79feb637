// ESLint: the language rules of typescript-eslint and eslint-plugin-svelte, and the house's
// layers as import rules (VS Code's lint-enforced layering is the model). Formatting is
// Prettier's (eslint-config-prettier turns off every rule it owns); `npm run lint` runs both.
import js from '@eslint/js'
import prettier from 'eslint-config-prettier'
import svelte from 'eslint-plugin-svelte'
import globals from 'globals'
import tseslint from 'typescript-eslint'
import { layersPlugin } from './scripts/eslint-layers.js'
import svelteConfig from './svelte.config.js'

/**
 * Test code may reach across layers to drive both ends (a fixture sshd, the page's transport).
 * Production code never imports test code: see the no-restricted-imports rule below.
 */
const TESTS = ['**/*.test.ts', '**/testing/**', 'e2e/**', 'bench/**', 'scripts/**']

/**
 * A spread hands every element to the call as an argument: past about 125,000 (fewer on a small
 * stack) it throws RangeError, and the lists here are as long as an instance or a service makes
 * them (#21: 200,000 GPU lines in `Math.min(...loads)` took main down). Loops instead
 * (src/shared/extremes.ts for the lowest and highest).
 */
const UNBOUNDED_SPREADS = [
  {
    selector: "CallExpression[callee.object.name='Math'][callee.property.name=/^(min|max)$/] > SpreadElement",
    message: 'Math.min/max(...list) throws past ~125k values: use lowest()/highest() from src/shared/extremes.ts.'
  },
  {
    selector: 'CallExpression[callee.property.name=/^(push|unshift)$/] > SpreadElement',
    message: 'push(...list) throws past ~125k values: add them in a loop (for … of) or use concat.'
  },
  {
    selector: "CallExpression[callee.object.name='String'][callee.property.name=/^fromC(har|odePoint)/] > SpreadElement",
    message: 'String.fromCharCode(...bytes) throws past ~125k values: decode in chunks or with TextDecoder.'
  }
]

/**
 * ssh2 1.17's generateKeyPairSync('ed25519') drops a leading zero byte of the public key: about
 * 1 key in 256 cannot be read back ("Malformed OpenSSH private key"), which failed CI once in a
 * test's host key. The one maker that reads each key back lives in src/emulator/reach/host-key.ts.
 */
const UNCHECKED_SSH_KEYS = [
  {
    selector: "CallExpression[callee.property.name='generateKeyPairSync'][arguments.0.value='ed25519']",
    message: 'ssh2 makes an unreadable ed25519 key 1 time in 256: use generateEd25519KeyPair() from src/emulator/reach/host-key.ts.'
  }
]

/** The renderer's feature folders: each may use the others, lib/ and ui/, never a route in views/. */
const RENDERER = './src/renderer/src'
const RENDERER_FEATURES = ['account', 'cost', 'create', 'instances', 'jobs', 'launch', 'terminal', 'update', 'web-shell'].map(
  (folder) => `${RENDERER}/${folder}`
)

/** Who may import whom (quoted in ARCHITECTURE.md, checked by scripts/architecture.test.ts): files in `target` (but not `except`) must not import `from` or `packages` (scripts/eslint-layers.js). */
export const LAYERS = [
  {
    target: './src/shared',
    from: ['./src/main', './src/emulator', './src/renderer', './src/web', './src/preload', './src/cli'],
    message: 'src/shared imports nothing of ours: it is the contract every layer builds on.'
  },
  {
    target: './src/emulator',
    from: ['./src/main', './src/renderer', './src/web', './src/preload', './src/cli'],
    message: 'The emulator plays the cloud: it imports only src/shared, and the app reaches it only over the network.'
  },
  {
    target: './src/renderer',
    from: ['./src/main', './src/emulator', './src/web', './src/preload', './src/shared/node', './src/cli'],
    message: 'The renderer is a sandboxed web page: it imports only src/shared (never its Node-only part).'
  },
  {
    target: './src/preload',
    from: ['./src/main', './src/emulator', './src/renderer', './src/web', './src/shared/node', './src/cli'],
    message: 'The preload exposes the contract and nothing else: it imports only src/shared.'
  },
  {
    target: './src/main',
    from: ['./src/renderer', './src/web', './src/preload', './src/cli'],
    message: 'Main imports only src/shared and the emulator (the Sandbox runs it in-process).'
  },
  {
    target: './src/web',
    from: ['./src/emulator', './src/renderer', './src/preload', './src/cli'],
    message: 'The web shell is another shell around main: it imports only src/main and src/shared.'
  },
  {
    target: './src/cli',
    from: ['./src/main', './src/emulator', './src/renderer', './src/web', './src/preload'],
    message: 'cloud-tray reaches the running app over its socket: it imports only src/shared, and stays small to start fast.'
  },
  {
    target: `${RENDERER}/lib`,
    from: [...RENDERER_FEATURES, `${RENDERER}/ui`, `${RENDERER}/views`],
    message:
      "The renderer's lib/ is what its features stand on (the bridge, the mirror store, app-wide stores): it imports no feature, component or view."
  },
  {
    target: `${RENDERER}/ui`,
    from: [...RENDERER_FEATURES, `${RENDERER}/views`],
    message: 'ui/ holds generic components: they know no feature and no view, only lib/ and src/shared.'
  },
  ...RENDERER_FEATURES.map((target) => ({
    target,
    from: [`${RENDERER}/views`],
    message: 'A feature folder never imports a route: the views in views/ compose the features.'
  })),
  // Walls inside main (src/main/README.md): the floors are shells (index.ts) → core.ts → commands/ → parts.
  {
    target: './src/main',
    except: [/^src\/main\/(core|index)\.ts$/, /^src\/main\/commands\//],
    from: ['./src/main/commands', './src/main/core.ts'],
    message:
      'Only core.ts builds the command groups: adapters, windows/, notebook/ and every part of main stay below commands/ and core.ts (a part hears the hub; it never calls a command group).'
  },
  {
    target: './src/main/core-types.ts',
    from: ['./src/main', './src/emulator'],
    message: 'core-types.ts is the seam every part of main stands on: it imports only src/shared.'
  },
  {
    target: './src/main/windows',
    from: ['./src/main/notebook'],
    message:
      'Notebook windows use windows/ (the leave policy, the icon), never the other way: what Quit needs of them is a structural type.'
  },
  {
    target: './src/main',
    except: [/^src\/main\/account\/sandbox-emulator\.ts$/],
    from: ['./src/emulator'],
    message:
      'Main reaches the emulator through one door, account/sandbox-emulator.ts: the Sandbox starts, and gets its reach and its key, from there.'
  },
  {
    target: './src',
    except: [/^src\/main\/index\.ts$/, /^src\/main\/.+-adapter\.ts$/, /^src\/preload\/index\.ts$/],
    packages: ['electron'],
    message:
      'Only thin adapters touch Electron (src/main/index.ts, src/main/**/*-adapter.ts, the preload); everything else runs, and is tested, in plain Node or a page.'
  }
]

export default tseslint.config(
  {
    ignores: [
      'out/**',
      'dist/**',
      'node_modules/**',
      'test-results/**',
      'playwright-report/**',
      'e2e/artifacts/**',
      '.tmp/**',
      'resources/**'
    ]
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  // Svelte's rules only where Svelte is: some (no-inner-declarations) break on plain CommonJS under ESLint 10.
  ...svelte.configs.recommended.map((config) => ({ files: ['**/*.svelte', '**/*.svelte.ts'], ...config })),
  {
    languageOptions: {
      ecmaVersion: 2024,
      sourceType: 'module',
      globals: { ...globals.node, ...globals.browser }
    },
    rules: {
      // Matching control characters is how the app finds them in untrusted text (os-text, ssh values).
      'no-control-regex': 'off',
      'no-restricted-syntax': ['error', ...UNBOUNDED_SPREADS, ...UNCHECKED_SSH_KEYS],
      // Names starting with _ are deliberately unused (a parameter a signature needs).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }]
    }
  },
  {
    // The checked key maker itself.
    files: ['src/emulator/reach/host-key.ts'],
    rules: { 'no-restricted-syntax': ['error', ...UNBOUNDED_SPREADS] }
  },
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: {
      parserOptions: { parser: tseslint.parser, extraFileExtensions: ['.svelte'], svelteConfig }
    },
    rules: {
      // The stores and components replace state (`list = [...list, item]`) rather than mutate
      // it, so a Map or Set in them is a local lookup, never state that SvelteMap would track.
      'svelte/prefer-svelte-reactivity': 'off'
    }
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' }
  },
  {
    // The layers, for production code.
    files: ['src/**/*.ts', 'src/**/*.svelte'],
    ignores: TESTS,
    plugins: { house: layersPlugin(import.meta.dirname, LAYERS) },
    rules: {
      'house/layers': 'error',
      // Test code stays out of the app: it would ship in the build, and a helper's shortcuts
      // (fixed keys, fake clocks, loopback servers) would become the app's behaviour.
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/testing', '**/testing/**'], message: 'Production code never imports a test helper (testing/ folders).' },
            {
              group: ['vitest', 'vitest/**', '@vitest/**', '@playwright/test', 'playwright', 'fast-check'],
              message: 'Production code never imports a test framework.'
            }
          ]
        }
      ]
    }
  },
  {
    // The table of contents reads top to bottom: no part is used before the line that builds it.
    files: ['src/main/core.ts', 'src/main/commands/index.ts'],
    rules: { '@typescript-eslint/no-use-before-define': ['error', { functions: true, classes: true, variables: true }] }
  },
  {
    files: TESTS,
    rules: {
      // Tests read untyped JSON answers and reach into objects on purpose.
      '@typescript-eslint/no-explicit-any': 'off'
    }
  },
  {
    // Playwright reads a fixture's dependencies from its first parameter: `async ({}, use)` is its idiom.
    files: ['e2e/**'],
    rules: { 'no-empty-pattern': 'off' }
  },
  prettier
)
