/**
 * One floor in a process of its own (forked by ./floors.ts): the floor's event loop, heap and sockets are its own,
 * as the project's are, instead of being shared with the bench's driver (Chromium's, or the rows' own timers), which
 * read 0.8 ms high on the status floor. The kind comes as the first argument; messages out: `up` (port, trigger
 * URL), `opened` (streams opened since the start, on each), `memory`; in: `memory` (the settled heap), `close`.
 */
import { settledMemory } from './stats';
import { startHonoFloor, startHopsFloor, startHttpFloor } from './floor-servers';

export type FloorKind = 'http' | 'hops' | 'hono';

const send = (message: object) => process.send!(message);
const onOpened = (opened: number) => send({ type: 'opened', opened });
const kind = process.argv[2] as FloorKind;

const floor =
  kind === 'http'
    ? await startHttpFloor(onOpened)
    : kind === 'hops'
      ? await startHopsFloor(onOpened)
      : kind === 'hono'
        ? await startHonoFloor()
        : undefined;
if (!floor) throw new Error(`bench floor: unknown kind ${kind}`);

process.on('message', (message: { type: string }) => {
  if (message.type === 'memory') void settledMemory().then((bytes) => send({ type: 'memory', bytes }));
  if (message.type === 'close') void floor.close().then(() => process.exit(0));
});
send({ type: 'up', port: floor.port, triggerUrl: 'triggerUrl' in floor ? floor.triggerUrl : undefined });
