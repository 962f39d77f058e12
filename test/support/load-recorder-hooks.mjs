// Module resolution hook of load-recorder.mjs.
const pattern = process.env.LOAD_RECORDER_PATTERN ? new RegExp(process.env.LOAD_RECORDER_PATTERN) : undefined;

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  if (pattern?.test(resolved.url)) process.stderr.write(`loaded ${resolved.url}\n`);
  return resolved;
}
