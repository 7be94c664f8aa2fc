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
