// Regions that scroll sideways can be reached and scrolled with the keyboard (WCAG 2.1.1; axe-core's
// scrollable-region-focusable): a code block, a notebook cell, a formula, a table (material's scroll wrapper) or
// a diagram in the lightbox (on a phone, site.css) wider than its box gets tabindex="0", role="region" and a name
// ("Code", "Formula"), and loses them again when it fits. Material does this for code blocks only on devices that
// can hover, and only as it first lays them out; the lightbox is built when it opens, so new elements are watched for too.
(() => {
  const ru = document.documentElement.lang === "ru";
  const KINDS = [
    [".md-typeset pre > code", ru ? "Код" : "Code"],
    [".md-typeset .highlight-ipynb", ru ? "Код" : "Code"],
    [".md-typeset .jp-OutputArea-output pre", ru ? "Вывод" : "Output"],
    [".md-typeset div.arithmatex", ru ? "Формула" : "Formula"],
    [".glightbox-container .gslide-image", ru ? "Схема" : "Diagram"],
    [".md-typeset .md-typeset__scrollwrap", ru ? "Таблица" : "Table"],
  ];
  const MARK = "data-cg-scroll-region";

  // All reads first, then all writes: a write between two reads would make the browser lay the page out again for
  // each element (the symptom index has over a hundred code blocks).
  function update(elements) {
    const scrolls = elements.map((el) => el.scrollWidth > el.clientWidth + 1);
    elements.forEach((el, i) => {
      if (scrolls[i]) {
        if (el.getAttribute("tabindex") !== "0") el.setAttribute("tabindex", "0");
        if (!el.hasAttribute(MARK)) {
          el.setAttribute(MARK, "");
          el.setAttribute("role", "region");
          el.setAttribute("aria-label", el.dataset.cgLabel);
        }
      } else if (el.hasAttribute(MARK)) {
        el.removeAttribute(MARK);
        el.removeAttribute("role");
        el.removeAttribute("aria-label");
        el.removeAttribute("tabindex");
      }
    });
  }

  const resized = new ResizeObserver((entries) => update(entries.map((entry) => entry.target)));
  // Material's code-block component removes the tabindex on devices without hover: put it back.
  const touched = new MutationObserver((records) => update(records.map((record) => record.target)));
  // New elements are measured together, once (one layout for all of them), then watched for size changes.
  function watch(root) {
    const found = [];
    for (const [selector, label] of KINDS) {
      const matching = [...root.querySelectorAll(selector)];
      if (root.matches?.(selector)) matching.push(root);
      for (const el of matching) {
        if (el.dataset.cgLabel) continue;
        el.dataset.cgLabel = label;
        found.push(el);
      }
    }
    update(found);
    for (const el of found) {
      resized.observe(el);
      touched.observe(el, { attributes: true, attributeFilter: ["tabindex"] });
    }
  }
  watch(document);
  new MutationObserver((records) => records.forEach((record) => record.addedNodes.forEach((node) => {
    if (node.nodeType === Node.ELEMENT_NODE) watch(node);
  }))).observe(document.body, { childList: true, subtree: true });
})();
