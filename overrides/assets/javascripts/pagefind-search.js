/*
 * Site search with Pagefind, shown in material's search dialog (overrides/partials/search.html).
 *
 * Pagefind's index is built by hooks/pagefind_index.py: one index per language, words stemmed with
 * Snowball (Russian inflections find each other). The index of the page's own language (<html lang>)
 * is loaded from this site, only when the reader starts a search: pages stay light and work offline.
 */
(() => {
  "use strict";

  // Ranking (issue 22: the answer first). Pagefind scores whole pages; a long page that mentions every word
  // somewhere (the symptom index) and a chapter that repeats one word often both beat the one section that
  // answers. So every section of the pages found is scored on its own, and a page ranks by its best section:
  //  - each query word found in the section adds its rarity among the sections found (log(1 + N / df)),
  //    times more where it stands in a heading or a symptom line (the location's weight, hooks/pagefind_index.py;
  //    a name in the section's heading counts with the heading's weight, see below);
  //  - the most query words in one run of consecutive matched words, each counted once (a pasted message is one
  //    run; distinctRun below) multiplies the sum, by up to 1 + PHRASE_GAIN, growing with the square of the share
  //    of the query the run covers (a whole message pasted beats a heading that repeats most of it).
  // Under the page the sections go by the same score, except that a long query (PASTED_WORDS words or more) puts
  // first a section holding VERBATIM_RUN or more of its distinct words in one run: the entry whose output prints the
  // message. Among those, more distinct words first, then the longer run: a run of repeated words (`[nan nan nan]`)
  // does not outrank the section that holds more of the message.
  const WEIGHT_GAIN = 0.5; // how much a word in a heading (weight 5-7) counts over one in prose (weight 1)
  const PHRASE_GAIN = 1; // a section holding the whole query as one run scores twice as much
  const PASTED_WORDS = 6; // a query this long may be a pasted message (below fewer words are everyday words)
  const OPENING_SHARE = 0.6; // what a page's opening counts for its rank, against a section (0.6-0.7 measured best)
  const VERBATIM_RUN = 5; // this many query words in one run under a page: that section holds the pasted message
  // "ё" is read as "е", as the Snowball stems of the query are (берётся -> берет): otherwise a page's "берётся"
  // never counts for the query word it matched in Pagefind.
  const words = (text) => text.toLowerCase().replace(/ё/g, "е").split(/[^\p{L}\p{N}_]+/u).filter(Boolean);
  // Latin words match by their first letters, so "returns" finds "returned"; Russian ones come stemmed.
  const key = (word) => (/^[a-z]/.test(word) && word.length > 4 ? word.slice(0, Math.max(4, word.length - 2)) : word);
  // A short Latin query word is a word of its own: "in" does not find "incorrect", nor "the" "then".
  const matches = (word, term) => (/^[a-z0-9]{1,3}$/.test(term) ? word === term : word.startsWith(term));

  function longestRun(sorted) {
    let run = 0, longest = 0;
    sorted.forEach((n, j) => { run = j > 0 && n === sorted[j - 1] + 1 ? run + 1 : 1; longest = Math.max(longest, run); });
    return longest;
  }

  // The phrase a section holds: the most query words found in one run of consecutive matched positions, each word
  // counted once. A word repeated (an output's `[nan nan nan]`, "is None (None") does not make a phrase: counted by
  // positions, such a run beat the section that holds the query's rarest word.
  function distinctRun(at) {
    const positions = [...at.keys()].sort((x, y) => x - y);
    let run = new Set(), longest = 0;
    positions.forEach((n, j) => {
      if (!(j > 0 && n === positions[j - 1] + 1)) run = new Set();
      at.get(n).forEach((k) => run.add(k));
      longest = Math.max(longest, run.size);
    });
    return longest;
  }

  function scoreSections(pages, query) {
    const terms = [...new Set(words(query).map(key))];
    const sections = [];
    pages.forEach((page, p) => {
      const text = (page.content || "").split(/\s+/);
      (page.sub_results || []).forEach((s, i) => {
        const best = new Map(); // term -> highest weight it has in this section
        const at = new Map(); // matched word position -> the terms found there
        const found = (position, k, weight) => {
          best.set(k, Math.max(best.get(k) || 0, weight));
          if (!at.has(position)) at.set(position, new Set());
          at.get(position).add(k);
        };
        for (const loc of s.weighted_locations || []) {
          const parts = words(text[loc.location] || "");
          // Pagefind divides the weight of a match inside a dotted name among the name's parts: `fsolve` in
          // `scipy.optimize.fsolve` weighs a third of a plain word. A query word that is a whole part of the name
          // (the name without its module path) counts the name's parts back in, as for headings below.
          const named = parts.filter((w) => w.length > 1);
          terms.forEach((t, k) => {
            if (!parts.some((w) => matches(w, t))) return;
            const whole = named.length > 1 && named.some((w) => key(w) === t);
            found(loc.location, k, whole ? loc.weight * named.length : loc.weight);
          });
        }
        // The section's heading, read here too: Pagefind splits a dotted or underscored name into its parts
        // (`tf.math.bessel_i1` is indexed as tf, math, bessel, i, 1) and weighs a part a third of the word, so the
        // query word `recompute_grad` finds the heading `tf.recompute_grad` at a third of the heading's weight, and
        // `bessel_i1` does not find `tf.math.bessel_i1` at all. A query word that is a whole word of the heading
        // (a name without its module path) counts with the weight Pagefind gives the heading's other words.
        if (s.anchor) {
          const from = s.anchor.location, to = from + (s.title || "").split(/\s+/).filter(Boolean).length;
          const inHeading = (s.weighted_locations || []).filter((l) => l.location >= from && l.location < to);
          const weight = Math.max(0, ...inHeading.map((l) => l.weight));
          for (let position = from; weight > 0 && position < to; position++) {
            const parts = words(text[position] || "");
            terms.forEach((t, k) => {
              if (parts.some((w) => key(w) === t)) found(position, k, weight);
            });
          }
        }
        const shown = s.url !== page.url && s.title !== page.meta.title;
        const all = [...new Set(s.locations || [])].sort((x, y) => x - y);
        const pasted = terms.length >= PASTED_WORDS;
        sections.push({ p, i, s, best, phrase: distinctRun(at), shown, run: pasted ? longestRun(all) : 0, n: pasted ? all.length : 0 });
      });
    });
    const df = terms.map((_, k) => sections.filter((x) => x.best.has(k)).length);
    for (const x of sections) {
      let sum = 0;
      x.best.forEach((w, k) => { sum += Math.log(1 + sections.length / df[k]) * (1 + WEIGHT_GAIN * Math.log2(1 + w)); });
      x.score = sum * (1 + PHRASE_GAIN * (Math.min(x.phrase, terms.length) / Math.max(terms.length, 1)) ** 2);
    }
    // Under a page, a section holding a long run of the query's words (the pasted message) comes first, then by score.
    const verbatim = (x) => (Math.min(x.run, x.phrase) >= VERBATIM_RUN ? x.phrase : 0);
    return pages
      .map((page, p) => {
        const mine = sections.filter((x) => x.p === p);
        // A page ranks by its best section; its opening (title and introduction, not shown as a section) names what
        // the whole page holds, so it counts OPENING_SHARE of its score.
        const top = Math.max(0, ...mine.map((x) => (x.shown ? x.score : OPENING_SHARE * x.score)));
        const shown = mine.filter((x) => x.shown).sort((a, b) => verbatim(b) - verbatim(a) || (verbatim(a) ? b.run - a.run : 0) || b.score - a.score || b.n - a.n || a.i - b.i).map((x) => x.s);
        return { page, p, top, shown };
      })
      .sort((a, b) => b.top - a.top || a.p - b.p);
  }


  // Pagefind returns only the pages that hold every word of the query: one word the site does not use ("calculation"
  // in a thread title) leaves nothing, and a page missing one everyday word loses to one that has them all. So the
  // search box also asks for each word alone and ranks the union (below): a section holding most of the rare words
  // wins over one holding all of the common ones. This merges those answers, page by page and section by section.
  function mergeResults(runs) {
    const byUrl = new Map();
    for (const run of runs) {
      for (const page of run || []) {
        const copy = (s) => ({ ...s, weighted_locations: [...(s.weighted_locations || [])], locations: [...(s.locations || [])] });
        const mine = byUrl.get(page.url);
        if (!mine) {
          byUrl.set(page.url, { ...page, sub_results: (page.sub_results || []).map(copy) });
          continue;
        }
        for (const s of page.sub_results || []) {
          const kept = mine.sub_results.find((x) => x.url === s.url);
          if (!kept) { mine.sub_results.push(copy(s)); continue; }
          const seen = new Set(kept.locations);
          for (const loc of s.weighted_locations || []) if (!seen.has(loc.location)) kept.weighted_locations.push(loc);
          kept.locations = [...new Set([...kept.locations, ...(s.locations || [])])];
          if ((s.locations || []).length > (kept.excerptFrom || 0)) { kept.excerpt = s.excerpt; kept.excerptFrom = s.locations.length; }
        }
      }
    }
    for (const page of byUrl.values()) {
      page.sub_results.sort((a, b) => Math.min(...a.locations) - Math.min(...b.locations)); // the page's order
    }
    return [...byUrl.values()];
  }

  // The ranking alone, for tests/site/test_search_ranking.py (it runs them on made-up results).
  window.cgSearchRank = { scoreSections, mergeResults };

  const dialog = document.querySelector("[data-cg-search]");
  const toggle = document.getElementById("__search");
  if (!dialog || !toggle) return;

  const form = dialog.querySelector("[data-cg-search-form]");
  const input = dialog.querySelector("[data-cg-search-query]");
  const meta = dialog.querySelector("[data-cg-search-meta]");
  const list = dialog.querySelector("[data-cg-search-list]");

  // This file is <site root>/assets/javascripts/pagefind-search.js.
  const root = new URL("../../", document.currentScript.src);
  const config = JSON.parse(document.getElementById("__config").textContent);
  const t = (key, count) => (config.translations[key] || key).replace("#", String(count));

  const MAX_RESULTS = 60; // pages read per search (a language has 27 today, the cookbook adds more)
  const MAX_SECTIONS = 3;

  let pagefind = null;
  function loadPagefind() {
    if (!pagefind) {
      pagefind = import(new URL("pagefind/pagefind.js", root).href).then(async (pf) => {
        await pf.options({ baseUrl: root.pathname, excerptLength: 24 });
        await pf.init();
        return pf;
      });
      pagefind.catch(() => { pagefind = null; });
    }
    return pagefind;
  }

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function resultLink(url, title, excerpt, isPage) {
    const link = element("a", "md-search-result__link");
    link.href = url;
    const article = element("article", "md-search-result__article md-typeset");
    if (isPage) article.append(element("div", "md-search-result__icon md-icon"));
    article.append(element("div", isPage ? "cg-search-result__title" : "cg-search-result__section", title));
    const text = element("p");
    text.innerHTML = excerpt; // Pagefind escapes the text and adds only <mark> elements
    article.append(text);
    link.append(article);
    return link;
  }

  function render(total, pages, query) {
    meta.textContent = total === 0 ? t("search.result.none") : t(total === 1 ? "search.result.one" : "search.result.other", total);
    list.replaceChildren(...scoreSections(pages, query).map(({ page, shown }) => {
      const item = element("li", "md-search-result__item");
      item.append(resultLink(page.url, page.meta.title || page.url, page.excerpt, true));
      for (const section of shown.slice(0, MAX_SECTIONS)) {
        item.append(resultLink(section.url, section.title, section.excerpt, false));
      }
      return item;
    }));
  }

  // Russian words are sent as their Snowball stems: Pagefind then matches every form of the word
  // (see russian-stem.js for why Pagefind's own stemming is not enough). Other words go as typed.
  function searchTerms(query) {
    const stem = window.cgRussianStem;
    return query
      .split(/\s+/)
      .filter(Boolean)
      .map((word) => {
        const cyrillic = word.replace(/[^а-яё]/gi, "");
        if (!stem || cyrillic.length !== word.replace(/[^\p{L}]/gu, "").length || cyrillic.length < 3) return word;
        const root = stem(cyrillic);
        return root.length >= 3 ? root : cyrillic;
      })
      .join(" ");
  }

  let generation = 0;
  async function search(query) {
    const mine = ++generation;
    if (!query.trim()) {
      meta.textContent = t("search.result.placeholder");
      list.replaceChildren();
      dialog.removeAttribute("data-cg-search-done");
      return;
    }
    const found = await find(query, () => mine !== generation);
    if (!found || mine !== generation) return;
    render(found.pages.length, found.pages, found.terms);
    dialog.setAttribute("data-cg-search-done", query); // the results shown are this query's
  }

  // The pages found for a query, merged (not yet ranked); null when `stale()` turns true on the way.
  async function find(query, stale = () => false) {
    const pf = await loadPagefind();
    const terms = searchTerms(query);
    const single = [...new Set(terms.split(" "))];
    // The whole query first (its pages come first on a tie), then each word alone (mergeResults above). One
    // search at a time: searches started together gave some of them incomplete results (seen in Chromium).
    const runs = [];
    for (const q of [terms, ...(single.length > 1 ? single : [])]) {
      const found = await pf.search(q);
      runs.push(found ? await Promise.all(found.results.slice(0, MAX_RESULTS).map((r) => r.data())) : []);
      if (stale()) return null;
    }
    return { pages: mergeResults(runs), terms };
  }
  // What the box would show for a query, as [[page url, [section urls]]], without typing it: for
  // tools/search_ranking.py, which measures the whole frozen query set at once while the ranking is tuned.
  window.cgSearchShown = async (query) => {
    const { pages, terms } = await find(query);
    return scoreSections(pages, terms).map(({ page, shown }) => [page.url, shown.slice(0, MAX_SECTIONS).map((s) => s.url)]);
  };

  let timer = 0;
  input.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(() => search(input.value), 120);
  });
  input.addEventListener("focus", () => {
    toggle.checked = true;
    loadPagefind();
  });
  toggle.addEventListener("change", () => {
    if (toggle.checked) setTimeout(() => input.focus(), 0);
    else input.blur();
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const first = list.querySelector("a");
    if (first) first.click();
  });
  form.addEventListener("reset", () => {
    setTimeout(() => { search(""); input.focus(); }, 0);
  });
  list.addEventListener("click", (event) => {
    if (event.target.closest("a")) toggle.checked = false;
  });
  dialog.addEventListener("keydown", (event) => {
    if (event.key === "Escape") {
      toggle.checked = false;
      input.blur();
    }
  });
  // "/", "s" or "f" opens search (as in material), unless the reader is typing somewhere.
  document.addEventListener("keydown", (event) => {
    if (toggle.checked || event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
    if (event.key === "/" || event.key === "s" || event.key === "f") {
      event.preventDefault();
      toggle.checked = true;
      input.focus();
    }
  });
})();
