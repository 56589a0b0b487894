// Prints the sizes of the rooms split per input (production), using build.mjs's logic by importing? Simplest: rebuild with metafile.
import * as esbuild from 'esbuild';
import { readFileSync } from 'node:fs';
const src = readFileSync('/tmp/prod/dist/rooms.js', 'utf8');
const keys = [...src.matchAll(/hostModule\("([^"]+)"\)/g)].map((m) => m[1]);
console.log(keys.join('\n'));
