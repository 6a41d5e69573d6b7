/**
 * Resolves in a new task (a MessageChannel message: no 4 ms timer clamp, and not throttled like a
 * timer in a busy page), so the browser can paint and handle input between two pieces of start-up
 * work (issue 17.4: each piece below 50 ms at a phone's speed).
 */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}
