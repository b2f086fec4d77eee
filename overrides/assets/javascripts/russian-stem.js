/*
 * The Snowball Russian stemmer (snowballstem.org/algorithms/russian/stemmer.html), for search queries.
 *
 * Pagefind stems the index with Snowball, yet in Pagefind 1.5 some inflected query words matched only
 * pages with that very form: `производной` and `второй` missed a page that says "производная" and
 * "второго" (while `производную` found both). Sending Pagefind the Snowball stem instead (`производн`)
 * makes it match every indexed word that starts with it, in any form. tests/site/test_search.py checks
 * such queries through this search box.
 * Used by pagefind-search.js; exposed as window.cgRussianStem for the browser tests.
 */
(() => {
  "use strict";

  const VOWELS = "аеиоуыэюя";
  const isVowel = (c) => VOWELS.includes(c);

  const PERFECTIVE_GERUND_1 = ["в", "вши", "вшись"]; // after а or я
  const PERFECTIVE_GERUND_2 = ["ив", "ивши", "ившись", "ыв", "ывши", "ывшись"];
  const ADJECTIVE = ["ее", "ие", "ые", "ое", "ими", "ыми", "ей", "ий", "ый", "ой", "ем", "им", "ым", "ом", "его",
    "ого", "ему", "ому", "их", "ых", "ую", "юю", "ая", "яя", "ою", "ею"];
  const PARTICIPLE_1 = ["ем", "нн", "вш", "ющ", "щ"]; // after а or я
  const PARTICIPLE_2 = ["ивш", "ывш", "ующ"];
  const REFLEXIVE = ["ся", "сь"];
  const VERB_1 = ["ла", "на", "ете", "йте", "ли", "й", "л", "ем", "н", "ло", "но", "ет", "ют", "ны", "ть", "ешь",
    "нно"]; // after а or я
  const VERB_2 = ["ила", "ыла", "ена", "ейте", "уйте", "ите", "или", "ыли", "ей", "уй", "ил", "ыл", "им", "ым", "ен",
    "ило", "ыло", "ено", "ят", "ует", "уют", "ит", "ыт", "ены", "ить", "ыть", "ишь", "ую", "ю"];
  const NOUN = ["а", "ев", "ов", "ие", "ье", "е", "иями", "ями", "ами", "еи", "ии", "и", "ией", "ей", "ой", "ий",
    "й", "иям", "ям", "ием", "ем", "ам", "ом", "о", "у", "ах", "иях", "ях", "ы", "ь", "ию", "ью", "ю", "ия", "ья", "я"];

  // Remove the longest ending of `s` found in the lists; endings of `afterAYa` must follow а or я
  // (which stays). Returns the shortened string, or null when no ending applies.
  function removeEnding(s, afterAYa, plain) {
    let best = null;
    let conditional = false;
    for (const [list, cond] of [[afterAYa, true], [plain, false]]) {
      for (const e of list) {
        if (s.endsWith(e) && (best === null || e.length > best.length)) {
          best = e;
          conditional = cond;
        }
      }
    }
    if (best === null) return null;
    if (conditional) {
      const before = s[s.length - best.length - 1];
      if (before !== "а" && before !== "я") return null;
    }
    return s.slice(0, s.length - best.length);
  }

  function adjectival(s) {
    const stem = removeEnding(s, [], ADJECTIVE);
    if (stem === null) return null;
    const shorter = removeEnding(stem, PARTICIPLE_1, PARTICIPLE_2);
    return shorter === null ? stem : shorter;
  }

  function stem(word) {
    const w = word.toLowerCase().replace(/ё/g, "е");
    let rv = w.length;
    for (let i = 0; i < w.length; i++) if (isVowel(w[i])) { rv = i + 1; break; }
    let r1 = w.length;
    for (let i = 1; i < w.length; i++) if (!isVowel(w[i]) && isVowel(w[i - 1])) { r1 = i + 1; break; }
    let r2 = w.length;
    for (let i = r1 + 1; i < w.length; i++) if (!isVowel(w[i]) && isVowel(w[i - 1])) { r2 = i + 1; break; }

    const head = w.slice(0, rv);
    let s = w.slice(rv);

    // Step 1
    let next = removeEnding(s, PERFECTIVE_GERUND_1, PERFECTIVE_GERUND_2);
    if (next !== null) {
      s = next;
    } else {
      next = removeEnding(s, [], REFLEXIVE);
      if (next !== null) s = next;
      next = adjectival(s);
      if (next === null) next = removeEnding(s, VERB_1, VERB_2);
      if (next === null) next = removeEnding(s, [], NOUN);
      if (next !== null) s = next;
    }
    // Step 2
    if (s.endsWith("и")) s = s.slice(0, -1);
    // Step 3: derivational ending, wholly in R2
    for (const e of ["ость", "ост"]) {
      if (s.endsWith(e) && head.length + s.length - e.length >= r2) { s = s.slice(0, -e.length); break; }
    }
    // Step 4
    if (s.endsWith("нн")) {
      s = s.slice(0, -1);
    } else {
      const sup = s.endsWith("ейше") ? 4 : s.endsWith("ейш") ? 3 : 0;
      if (sup) {
        s = s.slice(0, -sup);
        if (s.endsWith("нн")) s = s.slice(0, -1);
      } else if (s.endsWith("ь")) {
        s = s.slice(0, -1);
      }
    }
    return head + s;
  }

  window.cgRussianStem = stem;
})();
