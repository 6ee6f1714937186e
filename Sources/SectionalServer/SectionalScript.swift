import HTTPServer

/// The page script every composed page links: adding and removing
/// sections in place, forms that refresh their card, live cards. An app
/// adds a script of its own only for its own behaviour; pages work with no
/// script at all.
enum SectionalScript {
    /// Where it is served; the query names its content, so browsers may keep it for good.
    static let path = "/_sectional/sectional.js?v=" + etagValue
    static let routePath = "/_sectional/sectional.js"

    /// Its content's hash: the `ETag` and the version in `path`.
    static let etagValue: String = {
        // FNV-1a, 64 bits: a cache key, not a secret.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in source.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return String(hash, radix: 16)
    }()

    static let bytes = Array(source.utf8)

    static let source = #"""
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

          // Live sections: when a card is marked data-live, the page follows its event
          // stream and swaps in each card that changed (another tab, another device).
          // Tabs of one page share one stream: the tab holding the page's lock (Web
          // Locks) opens it for every section any of them shows, and tells the others
          // (BroadcastChannel) which versions changed; each tab then fetches its own
          // changed cards, which the server keeps rendered. Focus and scroll stay put.
          // Without those APIs each tab opens its own stream.
          const livePath = location.pathname.replace(/\/+$/, "");
          const seenVersions = new Map();  // section id -> version the page shows
          // Changes that arrive on their own are said once, by one live region of the page's for each
          // politeness a card declares (data-announce: polite by default, assertive, or off).
          const announcers = {};
          const announce = (text, politeness) => {
            if (politeness === "off") return;
            let announcer = announcers[politeness];
            if (!announcer) {
              announcer = announcers[politeness] = document.createElement("p");
              announcer.className = "visually-hidden";
              announcer.setAttribute("role", politeness === "assertive" ? "alert" : "status");
              announcer.dataset.sectionalAnnouncer = politeness;
              document.body.append(announcer);
            }
            announcer.textContent = text;
          };
          const liveCards = () => [...stack.querySelectorAll(":scope > section[data-live]")];
          // A card re-rendered for this page replaces the one shown. Focus goes back to the same control
          // (a field keeps what was typed in it and its caret), else to the card's heading.
          const swapIn = (fresh) => {
            const old = fresh && sectionElement(fresh.dataset.section);
            if (!old) return false;
            // A fetch that was overtaken by a later one brings an older card: the newer stays.
            if (Number(fresh.dataset.live || 0) < Number(old.dataset.live || 0)) return false;
            const active = old.contains(document.activeElement) ? document.activeElement : null;
            const form = active && active.closest("form");
            const field = active && active.name && (active.tagName === "INPUT" || active.tagName === "TEXTAREA") ? active : null;
            old.replaceWith(fresh);
            if (active) {
              const inForm = form && fresh.querySelector('form[action="' + CSS.escape(form.getAttribute("action")) + '"]');
              let target = inForm && (field ? inForm.querySelector('[name="' + CSS.escape(field.name) + '"]') : inForm.querySelector("button"));
              if (target && field) {
                target.value = field.value;
                if (field.selectionStart !== null) target.setSelectionRange(field.selectionStart, field.selectionEnd, field.selectionDirection);
              }
              if (!target) { target = fresh.querySelector("h2"); target.tabIndex = -1; }
              target.focus({ preventScroll: true });
            }
            const summary = fresh.querySelector("[data-live-summary]");
            announce((fresh.querySelector("h2") || {}).textContent + " updated" + (summary ? ": " + summary.dataset.liveSummary : ""),
                     fresh.dataset.announce || "polite");
            return true;
          };
          // `alerts=3.balances=1` -> [["alerts", 3], ["balances", 1]]
          const versionsIn = (eventID) => (eventID || "").split(".").map((pair) => pair.split("=")).filter(([id]) => id)
            .map(([id, version]) => [id, Number(version)]);
          const noteShown = () => {
            for (const card of liveCards()) {
              const version = Number(card.dataset.live || 0);
              if (!(seenVersions.get(card.dataset.section) >= version)) seenVersions.set(card.dataset.section, version);
            }
          };
          // What a stream opened anew must not resend: the versions shown.
          const shownIDs = (ids) => ids.map((id) => id + "=" + (seenVersions.get(id) || 0)).join(".");

          // One stream: its own (sections: null, the page's composition) or shared (the sections every tab shows).
          let liveSource = null;
          let liveURL = "";
          let liveRetry = 1000;
          let liveTimer = null;
          let liveEnded = false;
          const openStream = (sections, onChange) => {
            clearTimeout(liveTimer);
            const url = new URL(livePath + "/live" + location.search, location.href);
            if (sections) url.searchParams.set("sections", sections.join(","));
            for (const name of ["add", "remove"]) if (sections) url.searchParams.delete(name);
            // The same sections: the stream already open serves them.
            if (liveSource && liveURL === url.pathname + url.search) return;
            if (liveSource) { liveSource.close(); liveSource = null; }
            if (!window.EventSource || liveEnded || (sections ? sections.length === 0 : liveCards().length === 0)) return;
            liveURL = url.pathname + url.search;
            url.searchParams.set("lastEventId", shownIDs(sections || liveCards().map((card) => card.dataset.section)));
            const source = new EventSource(url.pathname + url.search);
            liveSource = source;
            source.addEventListener("open", () => { liveRetry = 1000; });
            source.addEventListener("section", (event) => onChange(event));
            // Replaced by a newer page of this user's, or signed out: not reopened.
            source.addEventListener("end", () => {
              source.close();
              liveSource = null;
              liveEnded = true;
              // A shared stream's end (signed out, replaced) is this tab's: the lock goes to another.
              if (releaseLock) { leading = false; releaseLock(); releaseLock = null; }
            });
            source.addEventListener("error", () => {
              // The browser retries a dropped stream itself, but never one that ended
              // with a non-200 (a proxy's 502, a 503): reopen that one, backing off.
              if (source.readyState !== EventSource.CLOSED || liveSource !== source) return;
              liveSource = null;
              liveURL = "";
              liveTimer = setTimeout(() => openStream(sections, onChange), liveRetry);
              liveRetry = Math.min(liveRetry * 2, 30000);
            });
          };

          // A tab's own stream: each event is this page's card, swapped in as it comes.
          const ownStream = () => openStream(null, (event) => {
            for (const [id, version] of versionsIn(event.lastEventId)) seenVersions.set(id, version);
            swapIn(fragmentElement(event.data));
          });

          // Shared: the versions that changed; each tab fetches its own cards that are behind them.
          const fetching = new Map();  // section id -> version being fetched
          const fetchChanged = (versions, retry = 1000) => {
            for (const [id, version] of versions) {
              if (!(version > (seenVersions.get(id) || 0)) || !(version > (fetching.get(id) || 0)) || !sectionElement(id)) continue;
              fetching.set(id, version);
              fetchText(livePath + "/sections/" + encodeURIComponent(id) + location.search)
                .then((html) => {
                  // Counted as shown only once it is: a failed fetch leaves the change to fetch again.
                  if (swapIn(fragmentElement(html)) || Number(sectionElement(id)?.dataset.live || 0) >= version) {
                    seenVersions.set(id, Math.max(version, seenVersions.get(id) || 0));
                  }
                })
                .catch(() => { setTimeout(() => fetchChanged([[id, version]], Math.min(retry * 2, 30000)), retry); })
                .finally(() => { if (fetching.get(id) === version) fetching.delete(id); });
            }
          };
          // Tabs share by page and context (a date, say), not by composition: their sections are joined.
          const context = new URLSearchParams(location.search);
          for (const name of ["sections", "add", "remove", "notice", "stream"]) context.delete(name);
          const sharedName = "sectional-live:" + livePath + "?" + context.toString();
          const shared = window.BroadcastChannel && navigator.locks ? new BroadcastChannel(sharedName) : null;
          const tabID = Math.random().toString(36).slice(2);
          const tabsSections = new Map();  // the leader's view: tab -> live sections it shows
          const latest = new Map();  // the leader's view: section id -> the newest version its stream named
          let leading = false;
          let releaseLock = null;
          let leadTimer = null;
          // Joined in one reopening: tabs answering a new leader all at once would each reopen the stream.
          const lead = () => {
            clearTimeout(leadTimer);
            leadTimer = setTimeout(() => {
              const union = [...new Set([...tabsSections.values()].flat())];
              openStream(union, (event) => {
                const versions = versionsIn(event.lastEventId);
                for (const [id, version] of versions) latest.set(id, Math.max(version, latest.get(id) || 0));
                shared.postMessage({ changed: versions });
                fetchChanged(versions);
              });
            }, 100);
          };
          const sayWhatIShow = () => {
            const sections = liveCards().map((card) => card.dataset.section);
            tabsSections.set(tabID, sections);
            shared.postMessage({ tab: tabID, sections, versions: [...seenVersions] });
            if (leading) lead();
          };
          if (shared) {
            shared.addEventListener("message", ({ data }) => {
              if (data.changed) fetchChanged(data.changed);
              if (data.tab && data.sections) {
                tabsSections.set(data.tab, data.sections);
                // A tab that came late may have missed a change: it hears what the stream last named.
                if (leading && latest.size) shared.postMessage({ changed: [...latest] });
                if (leading) lead();
              }
              if (data.gone) { tabsSections.delete(data.gone); if (leading) lead(); }
              // A new leader asks every tab what it shows.
              if (data.roll && data.tab !== tabID) sayWhatIShow();
            });
            addEventListener("pagehide", () => shared.postMessage({ gone: tabID }));
            // Back from the browser's back-forward cache: say what it shows again.
            addEventListener("pageshow", (event) => { if (event.persisted) sayWhatIShow(); });
            // Held until the tab goes (or its stream ends); then the next tab waiting gets it and opens the stream.
            navigator.locks.request(sharedName, () => new Promise((resolve) => {
              releaseLock = resolve;
              leading = true;
              shared.postMessage({ roll: true, tab: tabID });
              sayWhatIShow();
            }));
          }
          function openLive() {
            noteShown();
            if (shared) sayWhatIShow(); else ownStream();
          }
          openLive();
        })();
        """#
}

extension SectionalScript {
    /// Serves the script at `routePath`, with its `ETag`; a browser that has it gets a 304.
    static func register(on router: inout Router) {
        router.getSynchronously(routePath) { request in response(to: request) }
    }

    static func response(to request: Request) -> Response {
        let etag = "\"" + etagValue + "\""
        let headers: HTTPHeaders = [
            "Content-Type": "text/javascript; charset=utf-8", "ETag": etag,
            // The version is in the URL a page links: a new script is a new URL.
            "Cache-Control": "public, max-age=31536000, immutable", "X-Content-Type-Options": "nosniff",
        ]
        let cached = request.headers["If-None-Match"]?.split(separator: ",").contains { $0.trimmingPrefix(" ").trimmingPrefix("W/") == etag }
        if cached == true { return Response(status: .notModified, headers: headers) }
        return Response(headers: headers, body: .bytes(bytes))
    }
}
