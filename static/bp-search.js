/* bp-search.js — search the site from its header, in the reader's browser,
 * with nothing fetched but the site's own search-index.js (loaded by a
 * <script> tag on first use, so it works from file:// as from a server).
 * It replaces the header's link to the contents (a.bp-search-link, which
 * stays when scripts are off) with a combobox and a listbox of results,
 * each a page and the section of the match. The index's format is in
 * generator/render/search.c; the terms are cut here exactly as the
 * generator cuts them (render/search_text.c). */
(function () {
  "use strict";

  var STOP = ("a an and are as at be but by for from has have in into is it its of on or so " +
    "than that the their then there these this those to was were will with").split(" ");
  var MAX_TOKEN = 40;   /* bytes, as SEARCH_MAX_TOKEN */
  var MAX_RESULTS = 8;

  function isWord(cp) {
    if (cp < 0x80)
      return (cp >= 97 && cp <= 122) || (cp >= 65 && cp <= 90) || (cp >= 48 && cp <= 57);
    if (cp === 0xb5) return true;
    if (cp < 0xc0 || cp === 0xd7 || cp === 0xf7 || cp === 0xfffd || cp === 0xfeff) return false;
    if (cp >= 0x2000 && cp <= 0x2bff) return false;
    if (cp >= 0x3000 && cp <= 0x303f) return false;
    return true;
  }

  function lower(cp) {
    return (cp >= 65 && cp <= 90) || (cp >= 0xc0 && cp <= 0xde && cp !== 0xd7) ? cp + 32 : cp;
  }

  function isDigit(cps, i) {
    return i < cps.length && cps[i] >= 48 && cps[i] <= 57;
  }

  function utf8Length(s) {
    var n = 0;
    for (var i = 0; i < s.length; i++) {
      var c = s.charCodeAt(i);
      n += c < 0x80 ? 1 : c < 0x800 ? 2 : c >= 0xd800 && c < 0xdc00 ? (i++, 4) : 3;
    }
    return n;
  }

  /* The raw tokens of text, as render/search_text.c's next_token: {kind:
   * "number" | "word" | "%", text}. */
  function rawTokens(text) {
    var cps = Array.from(text, function (c) { return c.codePointAt(0); });
    var out = [];
    var i = 0;
    while (i < cps.length) {
      var cp = cps[i];
      if (cp === 37) { out.push({ kind: "%", text: "%" }); i++; continue; }
      if (!isWord(cp)) { i++; continue; }
      var t = "";
      if (cp >= 48 && cp <= 57) {
        while (i < cps.length) {
          if (isDigit(cps, i)) { t += String.fromCharCode(cps[i]); i++; }
          else if (cps[i] === 46 && isDigit(cps, i + 1) && t.indexOf(".") < 0) { t += "."; i++; }
          else if (cps[i] === 44 && t.indexOf(".") < 0 && isDigit(cps, i + 1) &&
                   isDigit(cps, i + 2) && isDigit(cps, i + 3) && !isDigit(cps, i + 4)) i++;
          else break;
        }
        out.push({ kind: "number", text: t });
        continue;
      }
      while (i < cps.length && isWord(cps[i])) { t += String.fromCodePoint(lower(cps[i])); i++; }
      out.push({ kind: "word", text: t });
    }
    return out;
  }

  /* What a query asks for: clauses each of which a section must match.
   * {num, word}: a number and the word after it; {num}; {word}. A word
   * matches as the start of a term (the reader may still be typing); a
   * number matches itself or itself with decimals ("110" finds "110.3"). */
  function clauses(query) {
    var raw = rawTokens(query);
    var out = [];
    for (var i = 0; i < raw.length; i++) {
      var t = raw[i];
      if (utf8Length(t.text) > MAX_TOKEN) continue;
      var stop = t.kind === "word" && STOP.indexOf(t.text) >= 0;
      if (t.kind === "number") {
        var n = raw[i + 1];
        if (n && n.kind !== "number" && STOP.indexOf(n.text) < 0 && utf8Length(n.text) <= MAX_TOKEN) {
          out.push({ num: t.text, word: n.text });
          i++;
        } else {
          out.push({ num: t.text });
        }
      } else if (t.kind === "word" && !stop && t.text.length >= 2) {
        out.push({ word: t.text });
      }
    }
    return out;
  }

  /* ------------------------------------------------------------ the index */

  function Index(data) {
    this.pages = data.pages;
    this.sections = data.sections;
    this.terms = data.terms ? data.terms.split("|") : [];
    this.postingText = data.postings ? data.postings.split("|") : [];
    this.decoded = [];
  }

  /* The first term not below s. */
  Index.prototype.lowerBound = function (s) {
    var lo = 0, hi = this.terms.length;
    while (lo < hi) {
      var mid = (lo + hi) >> 1;
      if (this.terms[mid] < s) lo = mid + 1; else hi = mid;
    }
    return lo;
  };

  /* Term k's postings: [section, weight, section, weight, ...]. */
  Index.prototype.postings = function (k) {
    if (this.decoded[k]) return this.decoded[k];
    var out = [];
    var sec = -1;
    var items = this.postingText[k].split(",");
    for (var i = 0; i < items.length; i++) {
      var it = items[i], colon = it.indexOf(":");
      sec += parseInt(colon < 0 ? it : it.slice(0, colon), 36);
      out.push(sec, colon < 0 ? 1 : parseInt(it.slice(colon + 1), 36));
    }
    this.decoded[k] = out;
    return out;
  };

  function numberMatches(term, num) {
    return term === num || (term.indexOf(num + ".") === 0 && /^\d+$/.test(term.slice(num.length + 1)));
  }

  /* The terms clause c matches, each with how well: 1 the whole term,
   * 0.5 a longer one. */
  Index.prototype.termsOf = function (c) {
    var out = [];
    var start = c.num !== undefined ? c.num : c.word;
    for (var k = this.lowerBound(start); k < this.terms.length; k++) {
      var t = this.terms[k];
      if (t.indexOf(start) !== 0) break;
      if (c.num !== undefined && c.word !== undefined) {
        var sp = t.indexOf(" ");
        if (sp < 0 || !numberMatches(t.slice(0, sp), c.num)) continue;
        var w = t.slice(sp + 1);
        if (w.indexOf(c.word) !== 0) continue;
        out.push([k, w === c.word && t.slice(0, sp) === c.num ? 1 : 0.5]);
      } else if (c.num !== undefined) {
        if (t.indexOf(" ") < 0 && numberMatches(t, c.num)) out.push([k, t === c.num ? 1 : 0.5]);
      } else if (t.indexOf(" ") < 0) {
        out.push([k, t === c.word ? 1 : 0.5]);
      }
    }
    return out;
  };

  /* The sections matching every clause, best first: [{section, score}]. */
  Index.prototype.search = function (query) {
    var cs = clauses(query);
    if (!cs.length) return null;
    var total = null;
    for (var i = 0; i < cs.length; i++) {
      var scores = new Map();
      var ts = this.termsOf(cs[i]);
      for (var j = 0; j < ts.length; j++) {
        var p = this.postings(ts[j][0]);
        for (var k = 0; k < p.length; k += 2)
          scores.set(p[k], (scores.get(p[k]) || 0) + p[k + 1] * ts[j][1]);
      }
      if (total === null) {
        total = scores;
      } else {
        var next = new Map();
        total.forEach(function (v, sec) {
          if (scores.has(sec)) next.set(sec, v + scores.get(sec));
        });
        total = next;
      }
      if (!total.size) break;
    }
    var list = [];
    total.forEach(function (v, sec) { list.push({ section: sec, score: v }); });
    list.sort(function (a, b) { return b.score - a.score || a.section - b.section; });
    return list;
  };

  /* ------------------------------------------------------------ the box */

  function setup(link) {
    var root = link.getAttribute("data-root") || "";
    var indexUrl = link.getAttribute("data-index");
    var fromFiles = location.protocol === "file:";
    var index = null, loading = false;

    var box = document.createElement("div");
    box.className = "bp-search";
    box.setAttribute("role", "search");
    var label = document.createElement("label");
    label.className = "bp-search-label";
    label.htmlFor = "bp-search-input";
    label.textContent = "Search";
    var input = document.createElement("input");
    input.id = "bp-search-input";
    input.type = "search";
    input.autocomplete = "off";
    input.spellcheck = false;
    input.placeholder = "Word or number: 5 min";
    input.setAttribute("role", "combobox");
    input.setAttribute("aria-autocomplete", "list");
    input.setAttribute("aria-expanded", "false");
    input.setAttribute("aria-controls", "bp-search-results");
    var list = document.createElement("ul");
    list.id = "bp-search-results";
    list.className = "bp-search-results";
    list.setAttribute("role", "listbox");
    list.setAttribute("aria-label", "Search results");
    list.hidden = true;
    var status = document.createElement("p");
    status.className = "bp-search-status";
    status.setAttribute("role", "status");
    box.appendChild(label);
    box.appendChild(input);
    box.appendChild(list);
    box.appendChild(status);
    link.parentNode.replaceChild(box, link);

    var active = -1;
    var shown = [];

    function urlOf(sec) {
      var s = index.sections, p = s[sec * 3];
      var url = root + index.pages[p * 2];
      if (fromFiles) url += "index.html";   /* a folder from files is a listing */
      else if (!url) url = "./";
      var id = s[sec * 3 + 1];
      return id ? url + "#" + id : url;
    }

    function setActive(k) {
      var items = list.children;
      if (active >= 0 && items[active]) items[active].setAttribute("aria-selected", "false");
      active = k;
      if (k >= 0 && items[k]) {
        items[k].setAttribute("aria-selected", "true");
        input.setAttribute("aria-activedescendant", items[k].id);
        items[k].scrollIntoView({ block: "nearest" });
      } else {
        input.removeAttribute("aria-activedescendant");
      }
    }

    function close() {
      list.hidden = true;
      input.setAttribute("aria-expanded", "false");
      setActive(-1);
    }

    function go(k) {
      if (k < 0 || k >= shown.length) return;
      var url = urlOf(shown[k]);
      close();
      location.href = url;
    }

    function render() {
      var q = input.value;
      while (list.firstChild) list.removeChild(list.firstChild);
      active = -1;
      input.removeAttribute("aria-activedescendant");
      shown = [];
      if (!q.trim()) { close(); status.textContent = ""; return; }
      if (!index) { status.textContent = "Loading the index…"; return; }
      var found = index.search(q);
      if (!found) { close(); status.textContent = ""; return; }
      for (var i = 0; i < found.length && i < MAX_RESULTS; i++) shown.push(found[i].section);
      shown.forEach(function (sec, k) {
        var s = index.sections;
        var li = document.createElement("li");
        li.id = "bp-search-result-" + k;
        li.setAttribute("role", "option");
        li.setAttribute("aria-selected", "false");
        li.setAttribute("data-href", urlOf(sec));
        var page = document.createElement("span");
        page.className = "bp-search-page";
        page.textContent = index.pages[s[sec * 3] * 2 + 1];
        li.appendChild(page);
        if (s[sec * 3 + 2]) {
          var head = document.createElement("span");
          head.className = "bp-search-section";
          head.textContent = s[sec * 3 + 2];
          li.appendChild(head);
        }
        li.addEventListener("mousedown", function (e) { e.preventDefault(); });
        li.addEventListener("click", function () { go(k); });
        list.appendChild(li);
      });
      var n = found.length;
      if (shown.length) {
        list.hidden = false;
        input.setAttribute("aria-expanded", "true");
      } else {
        close();
      }
      status.textContent = n === 0 ? "No results" :
        n === 1 ? "1 result" :
        n > shown.length ? n + " results, the best " + shown.length + " shown" : n + " results";
    }

    function load() {
      if (index || loading) return;
      loading = true;
      if (window.bpSearchIndex) { ready(); return; }
      var s = document.createElement("script");
      s.src = indexUrl;
      /* the preview (boardpress serve) tells this script when the index
       * changed, instead of reloading the page: the next use loads it anew */
      s.setAttribute("data-refetch", "");
      s.addEventListener("bp-refetch", function () {
        s.remove();
        delete window.bpSearchIndex;
        index = null;
        loading = false;
        box.removeAttribute("data-ready");
        if (document.activeElement === input) { load(); }
      });
      s.onload = ready;
      s.onerror = function () {
        loading = false;
        status.textContent = "The search index could not be loaded.";
      };
      document.head.appendChild(s);
    }

    function ready() {
      if (!window.bpSearchIndex) { status.textContent = "The search index could not be loaded."; return; }
      index = new Index(window.bpSearchIndex);
      box.setAttribute("data-ready", "");
      render();
    }

    input.addEventListener("focus", load);
    input.addEventListener("input", function () { load(); render(); });
    input.addEventListener("keydown", function (e) {
      var n = shown.length;
      if (e.key === "ArrowDown") {
        e.preventDefault();
        if (list.hidden && n) { list.hidden = false; input.setAttribute("aria-expanded", "true"); }
        if (n) setActive((active + 1) % n);
      } else if (e.key === "ArrowUp") {
        e.preventDefault();
        if (n) setActive(active <= 0 ? n - 1 : active - 1);
      } else if (e.key === "Enter") {
        if (n) { e.preventDefault(); go(active >= 0 ? active : 0); }
      } else if (e.key === "Escape") {
        if (!list.hidden) { e.preventDefault(); close(); }
        else if (input.value) { e.preventDefault(); input.value = ""; render(); }
      }
    });
    input.addEventListener("blur", close);
    /* "/" from anywhere on the page (not while typing) goes to the box */
    document.addEventListener("keydown", function (e) {
      if (e.key !== "/" || e.ctrlKey || e.metaKey || e.altKey) return;
      var t = e.target;
      if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
      e.preventDefault();
      input.focus();
    });
  }

  function start() {
    var links = document.querySelectorAll("a.bp-search-link[data-index]");
    for (var i = 0; i < links.length; i++) setup(links[i]);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
