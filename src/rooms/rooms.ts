// Loads dist/rooms.js (src/rooms/roomsEntry.ts) on first use, once, handing it this bundle's instances of the
// modules both share. CommonJS `require` is synchronous: a caller gets the room at once, and a session that never
// opens one never parses it (~70 KiB kept out of activation).
import * as path from 'node:path';
import { hostModules } from 'virtual:host-modules';
import type { ServerlessWritesFactory } from '../core/serverless/client';
import type { Rooms } from './roomsEntry';

let loaded: Rooms | undefined;

export function rooms(): Rooms {
  if (!loaded) {
    // `__dirname` is dist/: this file is bundled into dist/extension.js, beside rooms.js.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const entry = require(path.join(__dirname, 'rooms.js')) as { load(host: Readonly<Record<string, object>>): Rooms };
    loaded = entry.load(hostModules);
  }
  return loaded;
}

/** Whether a room has been loaded in this window (tests: a session that opens none never loads rooms.js). */
export function roomsLoaded(): boolean {
  return loaded !== undefined;
}

/**
 * The service client's serverless write calls (create, update, delete; releases; templates), from the room of
 * the forms that make them: handed to createServiceClient, asked for at the first such call.
 */
export function serverlessWritesOfRooms(): ServerlessWritesFactory {
  return rooms().serverlessWrites.serverlessWrites;
}
