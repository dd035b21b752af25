-- wrk script of `cargo xtask soak`: each thread cycles through every endpoint of the
-- service (open products, data packages with a key, the token endpoint, files,
-- redirects, errors) and counts the answers by status. wrk cannot tell which request
-- an answer belongs to, so the check is on the counts: each status must come back as
-- often as the requests that should get it were sent (give or take the requests in
-- flight), and no other status may come back at all.
--
-- Arguments (after `--`): the direct file path, the direct image path, the signed
-- package-file path, each taken from the server's own redirects before the run.

-- Globals are what the final report can read from each thread (`thread:get`).
local requests = {}
expected = {}
local index = 0
counts = {}
local threads = {}

local key = { ["key"] = "alpha-demo-key" }
local basic = {
  ["Authorization"] = "Basic YWxwaGEtZGVtby1rZXk6YWxwaGEtZGVtby1zZWNyZXQ=",
  ["Content-Type"] = "application/x-www-form-urlencoded",
}
local api = "/downloads/v1"
local product = api .. "/products/OpenMapLocal"
local package = api .. "/dataPackages/0040046952"

local function add(status, method, path, headers, body)
  table.insert(requests, wrk.format(method, path, headers, body))
  table.insert(expected, status)
end

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  add(200, "GET", api .. "/products")
  add(200, "GET", api .. "/products?expanded")
  add(200, "GET", product)
  add(200, "GET", product .. "/downloads")
  add(200, "GET", product .. "/downloads?area=SU&format=GeoPackage")
  add(307, "GET", product .. "/downloads?area=SU&format=GeoPackage&redirect")
  add(307, "GET", product .. "/images/0?large")
  add(404, "GET", api .. "/products/NoSuchProduct")
  add(400, "GET", api .. "/products?expanded=maybe")
  add(200, "GET", api .. "/dataPackages", key)
  add(200, "GET", package, key)
  add(200, "GET", package .. "/versions", key)
  add(200, "GET", package .. "/versions/latest", key)
  add(307, "GET", package .. "/versions/131866/downloads?fileName=SU31_addresses.zip", key)
  add(401, "GET", api .. "/dataPackages")
  add(200, "POST", "/oauth2/token/v1", basic, "grant_type=client_credentials")
  add(200, "GET", args[1])
  add(206, "GET", args[1], { ["Range"] = "bytes=0-1023" })
  add(200, "GET", args[2])
  add(200, "GET", args[3])
  add(200, "GET", "/downloads/v1/openapi.json")
end

function request()
  index = index % #requests + 1
  return requests[index]
end

function response(status, headers, body)
  counts[status] = (counts[status] or 0) + 1
end

function done(summary, latency, requests)
  -- Statuses answered, over all threads, and how many of each were asked for.
  local answered, share = {}, {}
  for _, thread in ipairs(threads) do
    for status, n in pairs(thread:get("counts")) do
      answered[status] = (answered[status] or 0) + n
    end
  end
  -- `done` runs apart from the threads: the mix is read back from one of them.
  local expected = threads[1]:get("expected")
  for _, status in ipairs(expected) do
    share[status] = (share[status] or 0) + 1
  end
  local total = 0
  for _, n in pairs(answered) do
    total = total + n
  end
  local errors = summary.errors
  io.write(string.format(
    "soak-summary requests=%d connect=%d read=%d write=%d timeout=%d p99_ms=%.1f\n",
    total, errors.connect, errors.read, errors.write, errors.timeout,
    latency:percentile(99) / 1000))
  for status, n in pairs(answered) do
    local wanted = total * (share[status] or 0) / #expected
    io.write(string.format("soak-status %d answered=%d expected=%.0f\n", status, n, wanted))
  end
  for status, n in pairs(share) do
    if not answered[status] then
      io.write(string.format("soak-status %d answered=0 expected=%.0f\n", status,
        total * n / #expected))
    end
  end
end
