// The floor workflow's local activities: nothing, but the last of them notes when the run was done,
// in the worker's memory, for the bench's delay from the request to the "confirmation".
export interface FloorActivities {
  read(id: string): Promise<void>;
  sms(id: string): Promise<void>;
  email(id: string): Promise<void>;
  notice(id: string): Promise<void>;
}

export function floorActivities(done: Map<string, number>): FloorActivities {
  const note = (id: string) => {
    done.set(id, Math.max(done.get(id) ?? 0, Date.now()));
  };
  return {
    async read() {},
    async sms(id) {
      note(id);
    },
    async email(id) {
      note(id);
    },
    async notice(id) {
      note(id);
    },
  };
}
