extension SectionalScript {
    /// The script itself: one function over the page, run once it is parsed
    /// (`defer`), kept in two parts of one scope: this one, which opens it
    /// and changes the composition in place, then `liveSource`, which
    /// follows live cards and closes it.
    static let source = compositionSource + "\n\n" + liveSource

    private static let compositionSource = #"""
        // Sectional's page script, served by the framework at /_sectional/sectional.js
        // and linked by every composed page. Progressive enhancement: with
        // JavaScript, adding or removing a section updates the page in place
        // (fetching only the new section's fragment) and the address bar, a form
        // marked data-refresh posts in place and refreshes its card, and live cards
        // follow their event stream; without it, every link and form works as it is.
        (() => {
          "use strict";

          const stack = document.getElementById("stack");
          if (!stack || !window.fetch || !window.history) return;

          // The placeholders a streamed page sent for cards it waited for: their cards are in now
          // (the script runs once the page is parsed), and a card removed in place must not uncover one.
          for (const placeholder of stack.querySelectorAll(":scope > .section-placeholder")) placeholder.remove();

          // A one-time notice (?notice=…) shows once: the address bar drops it, so a reload does not repeat it.
          if (/[?&]notice=/.test(location.search)) {
            const rest = location.search.slice(1).split("&").filter((pair) => pair && !pair.startsWith("notice="));
            history.replaceState(null, "", location.pathname + (rest.length ? "?" + rest.join("&") : "") + location.hash);
          }

          // The JSON twin of a page URL: /feed?x -> /api/feed/sections?x
          const apiURL = (pageURL) => {
            const url = new URL(pageURL, location.href);
            return "/api" + url.pathname + "/sections" + url.search;
          };

          const fetchText = async (url) => {
            const response = await fetch(url, { headers: { Accept: "text/html" } });
            if (!response.ok) throw new Error(url + " answered " + response.status);
            return response.text();
          };

          const fragmentElement = (html) => {
            const template = document.createElement("template");
            template.innerHTML = html.trim();
            return template.content.firstElementChild;
          };

          const sectionElement = (id) => stack.querySelector(':scope > section[data-section="' + CSS.escape(id) + '"]');

          // Rebuilds the "Add a section" links from the page description.
          const renderPicker = (available) => {
            let picker = document.querySelector(".section-picker");
            if (available.length === 0) { if (picker) picker.remove(); return; }
            if (!picker) {
              picker = document.createElement("nav");
              picker.className = "section-picker";
              picker.setAttribute("aria-label", "Add sections");
              const heading = document.createElement("h2");
              heading.textContent = "Add a section";
              picker.append(heading, document.createElement("ul"));
              stack.after(picker);
            }
            const list = picker.querySelector("ul");
            list.replaceChildren(...available.map((entry) => {
              const link = document.createElement("a");
              link.href = entry.add;
              link.dataset.sectionAction = "add";
              link.dataset.section = entry.id;
              link.textContent = "+ " + entry.title;
              const item = document.createElement("li");
              item.append(link);
              return item;
            }));
          };

          // Links and forms inside the sections that carry the page's composition (the
          // calendar's days, the check-up form) take the new one, as the server renders them.
          const syncComposition = (description) => {
            const match = /[?&]sections=([^&#]*)/.exec(description.page);
            const path = new URL(description.page, location.href).pathname;
            for (const link of stack.querySelectorAll("a[href]:not([data-section-action])")) {
              const url = new URL(link.href);
              if (url.origin !== location.origin || url.pathname !== path) continue;
              const query = url.search.slice(1).split("&").filter((pair) => pair && !pair.startsWith("sections="));
              if (match) query.push("sections=" + match[1]);
              link.href = url.pathname + (query.length ? "?" + query.join("&") : "") + url.hash;
            }
            // A form that posts the composition (saving it) posts the one shown.
            for (const input of document.querySelectorAll('form[method="post"] input[type="hidden"][name="sections"]')) {
              input.value = description.sections.map((s) => s.id).join(",");
            }
            // A form that loads the page (a GET to its path: the check-up, a date) carries its composition
            // as the server renders it: a hidden sections field first, none for the base layout.
            for (const form of stack.querySelectorAll('form[method="get"]')) {
              if (new URL(form.action, location.href).pathname !== path) continue;
              let input = form.querySelector('input[type="hidden"][name="sections"]');
              if (!match) { if (input) input.remove(); continue; }
              if (!input) {
                input = document.createElement("input");
                input.type = "hidden";
                input.name = "sections";
                form.prepend(input);
              }
              input.value = decodeURIComponent(match[1]);
            }
            // Forms that write send the browser back to the page as it now is.
            for (const input of stack.querySelectorAll('input[type="hidden"][name="back"]')) input.value = description.page;
            // An element with data-base-status says whether what is shown is the saved (or default) layout.
            const layoutStatus = document.querySelector("[data-base-status]");
            const isBase = !new URL(description.page, location.href).searchParams.has("sections");
            if (layoutStatus) layoutStatus.textContent = isBase ? layoutStatus.dataset.baseStatus : "This layout is not saved.";
            // What only a changed composition offers (saving it) shows once it differs from the base.
            for (const element of document.querySelectorAll("[data-hidden-at-base]")) element.hidden = isBase;
          };

          const applyComposition = async (pageURL) => {
            const description = await (await fetch(apiURL(pageURL))).json();
            if (description.error) throw new Error(description.error.message);
            // Fetch only the sections not on the page yet, all at once.
            const missing = description.sections.filter((s) => !sectionElement(s.id));
            const fetched = await Promise.all(missing.map((s) => fetchText(s.fragment)));
            const fresh = new Map(missing.map((s, i) => [s.id, fragmentElement(fetched[i])]));

            const wanted = new Set(description.sections.map((s) => s.id));
            for (const element of stack.querySelectorAll(":scope > section[data-section]")) {
              if (!wanted.has(element.dataset.section)) element.remove();
            }
            for (const section of description.sections) {
              const element = sectionElement(section.id) || fresh.get(section.id);
              const remove = element.querySelector('[data-section-action="remove"]');
              if (remove) remove.href = section.remove;
              stack.append(element); // appending an existing node moves it: page order holds
            }
            let empty = stack.querySelector(".stack-empty");
            if (!empty && description.sections.length === 0) {
              empty = document.createElement("div");
              empty.className = "stack-empty";
              empty.setAttribute("role", "status");
              empty.textContent = "No sections are shown. Add one below.";
              const heading = stack.querySelector(":scope > .page-title");
              if (heading) heading.after(empty); else stack.prepend(empty);
            }
            if (empty) empty.hidden = description.sections.length > 0;
            syncComposition(description);
            renderPicker(description.available);
            const canonical = document.querySelector('link[rel="canonical"]');
            if (canonical) canonical.href = description.page;
            history.replaceState(null, "", description.page);
            openLive();  // the stream follows the composition
          };

          // Focus goes where the reader's attention is after a change: to the heading
          // of the card that took a removed card's place (or the one above it, or the
          // picker when none is left), or to the heading of the card just added.
          const focusHeading = (card) => {
            const heading = card && card.querySelector("h2");
            if (!heading) return false;
            heading.tabIndex = -1;
            heading.focus();
            return true;
          };
          const cards = () => [...stack.querySelectorAll(":scope > section[data-section]")];

          document.addEventListener("click", (event) => {
            const link = event.target.closest("a[data-section-action]");
            if (!link || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
            event.preventDefault();
            // A section that fell back loads again in place: its card alone, the page stays.
            if (link.dataset.sectionAction === "retry") {
              const card = link.closest("section[data-section]");
              const id = card && card.dataset.section;
              const fragmentURL = location.pathname.replace(/\/+$/, "") + "/sections/" + encodeURIComponent(id) + location.search;
              card.setAttribute("aria-busy", "true");
              fetchText(fragmentURL)
                .then((html) => {
                  const fresh = fragmentElement(html);
                  if (!fresh) throw new Error("no card");
                  card.replaceWith(fresh);
                  focusHeading(fresh);
                })
                .catch(() => { location.href = link.href; });
              return;
            }
            // One change at a time: a second click while the first is applied (or
            // just after, when the next card's link has slid under the pointer) does nothing.
            if (stack.classList.contains("is-busy")) return;
            stack.classList.add("is-busy");
            const action = link.dataset.sectionAction;
            const card = link.closest("section[data-section]");
            const place = card ? cards().indexOf(card) : -1;
            const added = link.dataset.section;
            applyComposition(link.href)
              .then(() => {
                if (action === "add") {
                  focusHeading(sectionElement(added));
                } else {
                  const left = cards();
                  if (!focusHeading(left[Math.min(place, left.length - 1)])) {
                    const next = document.querySelector(".section-picker a") || stack;
                    if (next === stack) stack.tabIndex = -1;
                    next.focus();
                  }
                }
              })
              .catch(() => { location.href = link.href; })
              .finally(() => { setTimeout(() => stack.classList.remove("is-busy"), 400); });
          });

          // A form inside a section that writes (dismiss an alert, bring alerts
          // back) posts in place; then only its section is fetched again and
          // swapped in. Any failure falls back to the ordinary post and page load.
          document.addEventListener("submit", (event) => {
            const form = event.target.closest("form[data-refresh]");
            if (!form || form.dataset.posting) return;
            event.preventDefault();
            form.dataset.posting = "1";
            const id = form.dataset.refresh;
            const card = sectionElement(id);
            const fragmentURL = location.pathname.replace(/\/+$/, "") + "/sections/" + encodeURIComponent(id) + location.search;
            const body = new URLSearchParams(new FormData(form));
            // Busy until its fresh card replaces it: a screen reader waits for the new one.
            if (card) card.setAttribute("aria-busy", "true");
            // "manual": the 303 back to the page is the success signal; the page itself is not needed.
            fetch(form.action, { method: "POST", body, redirect: "manual" })
              .then((response) => {
                if (response.type !== "opaqueredirect" && !response.ok) throw new Error(form.action + " answered " + response.status);
                return fetchText(fragmentURL);
              })
              .then((html) => {
                const fresh = fragmentElement(html);
                if (!card || !fresh) throw new Error("no card to refresh");
                card.replaceWith(fresh);
                const next = fresh.querySelector("form[data-refresh] button") || fresh.querySelector("h2");
                if (next) { if (next.tagName === "H2") next.tabIndex = -1; next.focus(); }
              })
              .catch(() => { form.submit(); });
          });
        """#
}
