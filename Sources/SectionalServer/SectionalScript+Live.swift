extension SectionalScript {
    /// The page script's second part (see `source`): live cards, their shared stream, their announcements.
    static let liveSource = #"""
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
