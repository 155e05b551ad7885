/**
 * A shopper polling a checkout's status, in a process of its own (forked by ./console-status.ts), so that its own
 * work never shares the server's thread: on `start` it GETs the address one request after another, and on `stop`
 * it sends back the milliseconds each took.
 */
interface Command {
  type: 'start' | 'stop' | 'exit';
  url?: string;
}

let polling: Promise<number[]> | undefined;
let stopping = false;

async function poll(url: string): Promise<number[]> {
  const samples: number[] = [];
  while (!stopping) {
    const started = performance.now();
    const response = await fetch(url);
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`status poller: ${url} answered ${response.status}`);
    samples.push(performance.now() - started);
  }
  return samples;
}

process.on('message', (command: Command) => {
  if (command.type === 'start') {
    stopping = false;
    polling = poll(command.url!);
    process.send!({ type: 'started' });
  } else if (command.type === 'stop') {
    stopping = true;
    polling!.then(
      (samples) => process.send!({ type: 'samples', samples }),
      (error: unknown) => process.send!({ type: 'failed', message: String(error) }),
    );
  } else process.exit(0);
});
process.send!({ type: 'ready' });
