/**
 * Imported first by every bench that runs main's parts (the core, the web shell, the SSH data path)
 * in its own Node process: that process plays main, so it gets the V8 heap setting both shells'
 * entries give main (src/main/heap-growth.ts).
 */
import { pinMainHeapGrowth } from '../src/main/heap-growth'

pinMainHeapGrowth()
