/** The package's version, written into the bundle by vite.cli.config.ts (absent when run from source). */
declare const __CLOUD_TRAY_VERSION__: string | undefined
