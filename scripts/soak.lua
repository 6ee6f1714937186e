-- wrk script for `make soak`: a mix of every kind of request the site
-- answers, good and bad, each thread stopping after its share of requests.
-- (wrk itself still runs for its -d duration: scripts/checks/soak.py sizes it.)
-- HEAD is sent by scripts/head-client.py instead: wrk's parser waits for the
-- body that a HEAD answer announces but never sends.
-- Usage: wrk -s scripts/soak.lua [-H "Cookie: sectional_session=..."] ... -- REQUESTS_PER_THREAD
-- Every request carries wrk's -H fields (the signed-in session's cookie),
-- those that set fields of their own too.
-- Prints "status CODE COUNT" lines and "answered N" at the end.

local mix = {
  -- pages: streamed (the default), whole, out of order; the day page
  {4, "GET", "/feed"}, {3, "GET", "/feed?stream=0"}, {1, "GET", "/feed?stream=ooo"},
  {2, "GET", "/day?date=2026-11-03"}, {1, "GET", "/day?date=2026-11-04&stream=0"}, {1, "GET", "/day"},
  -- composition variants
  {1, "GET", "/feed?sections=credit-score,balances"}, {1, "GET", "/feed?remove=alerts&add=recent-activity"},
  {1, "GET", "/feed?add=checkup"}, {1, "GET", "/feed?sections="}, {1, "GET", "/feed?sections=alerts&sections=alerts,balances&remove=checkup"},
  {1, "GET", "/day?date=2026-11-03&sections=summary,sleep"}, {1, "GET", "/day?date=2026-12-31&remove=calendar&stream=0"},
  -- fragments and JSON
  {2, "GET", "/feed/sections/alerts"}, {1, "GET", "/feed/sections/credit-score?sections=credit-score"},
  {1, "GET", "/day/sections/calendar?date=2026-11-03"}, {2, "GET", "/api/feed/sections"},
  {1, "GET", "/api/feed/sections?add=checkup&pretty"}, {1, "GET", "/api/day/sections?date=2026-11-03"},
  -- static files and a revalidation
  {2, "GET", "/styles.css"}, {1, "GET", "/_sectional/sectional.js"}, {1, "GET", "/favicon.svg"},
  {1, "GET", "/styles.css", {["If-None-Match"] = "*"}},
  -- unknown ids, bad dates, 404s, a method not allowed, health
  {1, "GET", "/feed?sections=nope"}, {1, "GET", "/feed/sections/nope"}, {1, "GET", "/api/feed/sections?add=bogus"},
  {1, "GET", "/day?date=2026-02-30"}, {1, "GET", "/day?date=yesterday"}, {1, "GET", "/api/day/sections?date=1-1-1"},
  {1, "GET", "/nothing-here"}, {1, "GET", "/feed/extra/deep"}, {1, "GET", "/..%2f..%2fetc/passwd"},
  {1, "POST", "/feed"}, {1, "GET", "/healthz"},
}

local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  limit = tonumber(args[1]) or 1000
  answered = 0
  counts = {}
  requests = {}
  for _, entry in ipairs(mix) do
    -- wrk.format sends wrk.headers (the -H fields) only when given no fields.
    local headers = nil
    if entry[4] then
      headers = {}
      for name, value in pairs(wrk.headers) do headers[name] = value end
      for name, value in pairs(entry[4]) do headers[name] = value end
    end
    local text = wrk.format(entry[2], entry[3], headers)
    for _ = 1, entry[1] do table.insert(requests, text) end
  end
  -- Each thread starts at its own place in the mix.
  index = math.random(#requests)
end

function request()
  index = index % #requests + 1
  return requests[index]
end

function response(status, headers, body)
  counts[status] = (counts[status] or 0) + 1
  answered = answered + 1
  if answered >= limit then wrk.thread:stop() end
end

function done(summary, latency, requests)
  local total, merged = 0, {}
  for _, thread in ipairs(threads) do
    total = total + thread:get("answered")
    for status, count in pairs(thread:get("counts")) do merged[status] = (merged[status] or 0) + count end
  end
  for status, count in pairs(merged) do io.write(string.format("status %d %d\n", status, count)) end
  io.write(string.format("answered %d\n", total))
  local errors = summary.errors
  io.write(string.format("socket-errors %d %d %d %d %d\n", errors.connect, errors.read, errors.write, errors.status, errors.timeout))
  io.write(string.format("latency-ms p50 %.2f p99 %.2f max %.2f\n", latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.max / 1000))
  io.write(string.format("seconds %.1f\n", summary.duration / 1e6))
end
