/**
 * Each webhook endpoint's lane in the delivery worker (./delivery.ts): the deliveries claimed for it and not yet
 * answered (at most `holds`), of which at most `sends` are in flight at once; the others wait in the lane, in claim
 * order, and go as soon as one in flight is answered (or times out). A lane never lends its places to another: an
 * endpoint that hangs fills its own and waits out its timeouts there while the others drain.
 */

export interface LaneOptions {
  /** Deliveries in flight to one endpoint at once. */
  sends: number;
  /** Deliveries one endpoint's lane holds at most, in flight or waiting to be sent. */
  holds: number;
  /** Called each time a delivery leaves `endpointId`'s lane (answered, or failed), with how many it still holds. */
  onLeave: (endpointId: string, held: number) => void;
}

interface Lane {
  held: number;
  inFlight: number;
  queue: (() => void)[];
}

export function endpointLanes({ sends, holds, onLeave }: LaneOptions) {
  const lanes = new Map<string, Lane>();

  const pump = (lane: Lane) => {
    while (lane.inFlight < sends && lane.queue.length > 0) {
      lane.inFlight++;
      lane.queue.shift()!();
    }
  };

  return {
    /** How many more deliveries the endpoint's lane takes now. */
    room: (endpointId: string) => holds - (lanes.get(endpointId)?.held ?? 0),
    /** Sends through the endpoint's lane: `send` runs once a place in flight is free; resolves (or rejects) as it does. */
    run<T>(endpointId: string, send: () => Promise<T>): Promise<T> {
      let lane = lanes.get(endpointId);
      if (!lane) lanes.set(endpointId, (lane = { held: 0, inFlight: 0, queue: [] }));
      const mine = lane;
      mine.held++;
      const leave = () => {
        mine.inFlight--;
        mine.held--;
        if (mine.held === 0) lanes.delete(endpointId);
        pump(mine);
        onLeave(endpointId, mine.held);
      };
      return new Promise<T>((resolve, reject) => {
        mine.queue.push(() => void send().finally(leave).then(resolve, reject));
        pump(mine);
      });
    },
  };
}
