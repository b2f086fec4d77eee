/*
 * Site search with Pagefind, shown in material's search dialog (overrides/partials/search.html).
 *
 * Pagefind's index is built by hooks/pagefind_index.py: one index per language, words stemmed with
 * Snowball (Russian inflections find each other). The index of the page's own language (<html lang>)
 * is loaded from this site, only when the reader starts a search: pages stay light and work offline.
 */
(() => {
  "use strict";

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

  const MAX_RESULTS = 30; // the whole site has fewer pages per language
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

  // The longest run of consecutive matched words in a section: a pasted message matches as one run.
  function phrase(section) {
    const at = [...new Set(section.locations || [])].sort((x, y) => x - y);
    let best = 0, run = 0;
    at.forEach((n, i) => { run = i > 0 && n === at[i - 1] + 1 ? run + 1 : 1; best = Math.max(best, run); });
    return best;
  }

  function render(total, pages) {
    meta.textContent = total === 0 ? t("search.result.none") : t(total === 1 ? "search.result.one" : "search.result.other", total);
    list.replaceChildren(...pages.map((page) => {
      const item = element("li", "md-search-result__item");
      item.append(resultLink(page.url, page.meta.title || page.url, page.excerpt, true));
      // Sections that match the query as one phrase first: a pasted error message lands on its entry.
      const sections = (page.sub_results || [])
        .filter((s) => s.url !== page.url && s.title !== page.meta.title)
        .map((s, i) => [s, i])
        .sort((a, b) => phrase(b[0]) - phrase(a[0]) || (b[0].locations || []).length - (a[0].locations || []).length || a[1] - b[1])
        .map(([s]) => s);
      for (const section of sections.slice(0, MAX_SECTIONS)) {
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
    const pf = await loadPagefind();
    const found = await pf.search(searchTerms(query));
    if (mine !== generation || !found) return;
    const pages = await Promise.all(found.results.slice(0, MAX_RESULTS).map((r) => r.data()));
    if (mine !== generation) return;
    render(found.results.length, pages);
    dialog.setAttribute("data-cg-search-done", query); // the results shown are this query's
  }

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
