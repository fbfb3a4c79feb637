/**
 * The `nvidia-smi` of an emulated instance: a small script in the instance's own bin folder,
 * which its SSH sessions have first on PATH, answering from data files the emulator rewrites
 * whenever the instance's GPUs change (gpus.ts). `--query-gpu=<fields> --format=csv[,noheader]
 * [,nounits]` prints those fields of every GPU (an unknown field is refused as nvidia-smi does);
 * plain `nvidia-smi` prints the table. POSIX sh and awk; on Windows a .cmd answers the app's own
 * query and the table.
 */
import { chmod, mkdir, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import { appQueryAnswer, gpuTable, nvidiaSmiTable, type EmuGpu } from '../gpus'

export const NVIDIA_SMI_SCRIPT = `#!/bin/sh
# nvidia-smi of the Cloud Tray emulator: it answers from the values POST /__emulator/gpu set.
here=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
query=
format=csv
for arg in "$@"; do
  case "$arg" in
    --query-gpu=*) query=\${arg#--query-gpu=} ;;
    --format=*) format=\${arg#--format=} ;;
    -h|--help) echo "NVIDIA System Management Interface (emulated by Cloud Tray): nvidia-smi [--query-gpu=FIELDS --format=csv[,noheader][,nounits]]"; exit 0 ;;
    *) echo "Invalid combination of input arguments. Please run 'nvidia-smi -h' for help." >&2; exit 2 ;;
  esac
done
if [ -z "$query" ]; then
  date '+%a %b %e %H:%M:%S %Y'
  exec cat "$here/table.txt"
fi
exec awk -F '\\t' -v query="$query" -v format="$format" '
  NR == 1 {
    for (i = 1; i <= NF; i++) { split($i, part, ":"); column[part[1]] = i; unit[part[1]] = part[2] }
    wanted = split(query, field, ",")
    for (k = 1; k <= wanted; k++) {
      gsub(/^ +| +$/, "", field[k])
      if (!(field[k] in column)) { printf "Field \\"%s\\" is not a valid field to query.\\n", field[k] > "/dev/stderr"; failed = 1; exit 2 }
    }
    noheader = index(format, "noheader") > 0
    nounits = index(format, "nounits") > 0
    if (!noheader) {
      line = ""
      for (k = 1; k <= wanted; k++) line = line (k > 1 ? ", " : "") field[k] (unit[field[k]] != "" && !nounits ? " [" unit[field[k]] "]" : "")
      print line
    }
    next
  }
  {
    rows++
    line = ""
    for (k = 1; k <= wanted; k++) {
      value = $(column[field[k]])
      if (!nounits && unit[field[k]] != "") value = value " " unit[field[k]]
      line = line (k > 1 ? ", " : "") value
    }
    print line
  }
  END { if (!failed && rows == 0) { print "No devices were found"; exit 6 } }
' "$here/gpus.tsv"
`

export const NVIDIA_SMI_CMD = `@echo off
rem nvidia-smi of the Cloud Tray emulator: the app's query and the plain table.
echo %* | findstr /c:"--query-gpu" >nul && (type "%~dp0query.csv" & exit /b 0)
type "%~dp0table.txt"
`

/** The instance's bin folder: `nvidia-smi` (sh), `nvidia-smi.cmd`, and the data they read. */
export async function writeGpuFiles(binDir: string, gpus: readonly EmuGpu[]): Promise<void> {
  await mkdir(binDir, { recursive: true, mode: 0o700 })
  // Data first, each replaced whole (a probe running now reads the old or the new, never half).
  await replace(join(binDir, 'gpus.tsv'), gpuTable(gpus))
  await replace(join(binDir, 'query.csv'), appQueryAnswer(gpus))
  await replace(join(binDir, 'table.txt'), nvidiaSmiTable(gpus))
  await replace(join(binDir, 'nvidia-smi.cmd'), NVIDIA_SMI_CMD)
  await replace(join(binDir, 'nvidia-smi'), NVIDIA_SMI_SCRIPT, 0o755)
}

async function replace(path: string, text: string, mode = 0o644): Promise<void> {
  const temporary = `${path}.${randomBytes(4).toString('hex')}.tmp`
  await writeFile(temporary, text, { mode })
  await chmod(temporary, mode)
  await rename(temporary, path)
}
