/** Everything the process writes to stdout and stderr while `work` runs (log lines, warnings), as one text. */
export async function outputDuring(work: () => Promise<void>): Promise<string> {
  const written: string[] = [];
  const streams = [process.stdout, process.stderr];
  const originals = streams.map((stream) => stream.write);
  for (const [i, stream] of streams.entries()) {
    stream.write = function (this: NodeJS.WriteStream, ...args: Parameters<NodeJS.WriteStream['write']>) {
      written.push(String(args[0]));
      return Reflect.apply(originals[i], this, args);
    } as NodeJS.WriteStream['write'];
  }
  try {
    await work();
  } finally {
    for (const [i, stream] of streams.entries()) stream.write = originals[i];
  }
  return written.join('');
}
