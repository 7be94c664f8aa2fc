// check.mjs — what the browser tests (test.mjs, serve.mjs) share: a check
// that throws CheckFailed naming what failed, and the count of checks made.

export let checks = 0;
export class CheckFailed extends Error {}
export function check(ok, what) {
  checks++;
  if (!ok) throw new CheckFailed(what);
}
export function eq(got, want, what) {
  check(got === want, `${what}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
}

// Wait until fn() gives a true value (polled every 20 ms) and return it;
// after ms, fail naming what was awaited.
export async function until(what, fn, ms = 15000) {
  const t0 = Date.now();
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() - t0 > ms) throw new CheckFailed(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
