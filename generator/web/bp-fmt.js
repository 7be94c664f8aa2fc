/* bp-fmt.js — numbers as the pages show them: generator/base/fmt.c ported
 * to JavaScript digit for digit, so a number the reader's browser measures
 * reads exactly as the build would have written it ("1200.4", "26.5 s",
 * "0.015%", "12 USD/mo"). tests/live/fmt.js compares it with the C on
 * every kind of value (ties, powers of ten, the units' edges, NaN).
 *
 * C's printf("%.*f") writes the exact decimal value of the double rounded
 * half to even; toFixed rounds ties away from zero, so fixed() below does
 * the decimal rounding itself on the double's exact value (BigInt). C's
 * round() is half away from zero; Math.round rounds half up.
 *
 * A classic script: window.BpFmt in a page, self.BpFmt in a worker,
 * module.exports in Node. No dependencies. */
(function (root, factory) {
  'use strict';
  var api = factory();
  if (typeof module === 'object' && module.exports) module.exports = api;
  else root.BpFmt = api;
})(typeof self !== 'undefined' ? self : this, function () {
  'use strict';

  var bits = new DataView(new ArrayBuffer(8));

  /* C's round(): half away from zero. */
  function cround(x) {
    return x < 0 ? -Math.round(-x) : Math.round(x);
  }

  /* What printf("%.*f", d, x) writes (glibc, the "C" locale). */
  function printfFixed(x, d) {
    bits.setFloat64(0, x);
    var hi = bits.getUint32(0), lo = bits.getUint32(4);
    var neg = hi >>> 31 === 1;
    var exp = (hi >>> 20) & 0x7ff;
    if (exp === 0x7ff) {
      var nan = (hi & 0xfffff) !== 0 || lo !== 0;
      return (neg ? '-' : '') + (nan ? 'nan' : 'inf');
    }
    /* |x| = mant * 2^e exactly */
    var mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
    var e;
    if (exp === 0) {
      e = -1074;
    } else {
      mant |= 1n << 52n;
      e = exp - 1075;
    }
    var q;
    var scale = 10n ** BigInt(d);
    if (e >= 0) {
      q = (mant << BigInt(e)) * scale;
    } else {
      var num = mant * scale, den = 1n << BigInt(-e);
      q = num / den;
      var twice = (num % den) * 2n;
      if (twice > den || (twice === den && (q & 1n) === 1n)) q += 1n;
    }
    var s = q.toString();
    if (d > 0) {
      while (s.length <= d) s = '0' + s;
      s = s.slice(0, s.length - d) + '.' + s.slice(s.length - d);
    }
    return (neg ? '-' : '') + s;
  }

  /* fmt.c fixed(): x with exactly `decimals` decimals, '.' as the point. */
  function fixed(x, decimals) {
    var tmp = printfFixed(x, decimals), out = '', sep = false;
    for (var i = 0; i < tmp.length; i++) {
      var c = tmp.charAt(i);
      if ((c >= '0' && c <= '9') || (i === 0 && c === '-')) {
        out += c;
      } else if (!sep) {
        out += '.';
        sep = true;
      }
    }
    return out;
  }

  /* fmt.c trimmed(): at most `decimals` decimals, no trailing zeros, never "-0". */
  function trimmed(x, decimals) {
    var out = fixed(x, decimals);
    var dot = out.indexOf('.');
    if (dot >= 0) {
      var end = out.length - 1;
      while (end > dot && out.charAt(end) === '0') end--;
      out = out.slice(0, end === dot ? dot : end + 1);
    }
    return out === '-0' ? '0' : out;
  }

  function smallDecimals(ax) {
    if (isNaN(ax)) return 1;
    var d = 1 - Math.floor(Math.log10(ax));
    return d < 1 ? 1 : d > 9 ? 9 : d;
  }

  function number(x) {
    var ax = Math.abs(x);
    if (ax < 1e15 && Math.abs(x - cround(x)) < 1e-9) return trimmed(cround(x), 0);
    return ax < 1.0 ? trimmed(x, smallDecimals(ax)) : trimmed(x, 1);
  }

  var DURATION_UNITS = [
    [1e-6, '\u00b5s', 1000], [1e-3, 'ms', 1000], [1, 's', 60],
    [60, 'min', 60], [3600, 'h', 48], [86400, 'd', Infinity]
  ];

  function seconds(s) {
    if (s === 0) return '0 s';
    var n = DURATION_UNITS.length;
    for (var i = 0; i < n; i++) {
      var u = DURATION_UNITS[i], v = s / u[0], av = Math.abs(v);
      var decimals = i < 2 && av >= 10 ? 0 : 1;
      var scale = decimals ? 10.0 : 1.0;
      if (i + 1 < n && cround(av * scale) / scale >= u[2]) continue;
      return trimmed(v, decimals) + ' ' + u[1];
    }
    return ''; /* not reached: the last unit takes every value, NaN included */
  }

  function ratio(r) {
    var pct = r * 100.0;
    if (pct === 0) return '0%';
    var apct = Math.abs(pct);
    return (apct >= 1.0 ? trimmed(pct, 1) : trimmed(pct, smallDecimals(apct))) + '%';
  }

  function usd(v) {
    var cents = cround(v * 100.0);
    return (cents % 100.0 === 0 ? trimmed(cents / 100.0, 0) : fixed(cents / 100.0, 2)) + ' USD';
  }

  function usdMonth(v) {
    return usd(v) + '/mo';
  }

  /* sim-core/names.c's measure units, by measure name. */
  var UNITS = {
    error_rate: ratio,
    completion_time: seconds,
    latency_p50: seconds,
    latency_p99: seconds,
    monthly_cost: usdMonth,
    dead_letter_time: seconds
  };

  /* fmt_measure: a measure's value with its unit; counts are plain numbers. */
  function measure(name, v) {
    return (UNITS[name] || number)(v);
  }

  return {
    number: number,
    seconds: seconds,
    ratio: ratio,
    usdMonth: usdMonth,
    measure: measure,
    printfFixed: printfFixed
  };
});
