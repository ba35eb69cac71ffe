-- Coroutines: generators, wrap, yield across pcall and metamethods, errors
-- inside coroutines, close, status, deep nesting.
local function gen(n)
  return coroutine.wrap(function()
    for i = 1, n do coroutine.yield(i, i * i) end
    return "done"
  end)
end
local g = gen(5)
for _ = 1, 6 do print("gen", g()) end

local co = coroutine.create(function(a, b)
  print("start", a, b)
  local c = coroutine.yield(a + b)
  print("got", c)
  local d, e = coroutine.yield(c * 2)
  print("got2", d, e)
  return d + e, "end"
end)
print(coroutine.resume(co, 1, 2))
print(coroutine.status(co))
print(coroutine.resume(co, 10))
print(coroutine.resume(co, 3, 4))
print(coroutine.status(co), coroutine.resume(co))

-- yield across pcall
local co2 = coroutine.create(function()
  local ok, err = pcall(function()
    coroutine.yield("inside pcall")
    error("boom")
  end)
  coroutine.yield("after pcall", ok, (tostring(err):gsub("^.-:%d+: ", "")))
  return "finished"
end)
for _ = 1, 4 do print(coroutine.resume(co2)) end

-- error in coroutine with a table value, and traceback
local co3 = coroutine.create(function() error({code = 42}) end)
local ok, e = coroutine.resume(co3)
print(ok, type(e), e.code, coroutine.status(co3))

-- yield from a metamethod and from table.sort comparator is not allowed
local mt = {__add = function(a, b) return coroutine.yield("meta") end}
local co4 = coroutine.wrap(function()
  local x = setmetatable({}, mt) + 1
  return "meta result " .. tostring(x)
end)
print(co4())
print(co4(99))
local co5 = coroutine.create(function()
  table.sort({3, 2, 1}, function(a, b) coroutine.yield() return a < b end)
end)
local ok5, e5 = coroutine.resume(co5)
print(ok5, (tostring(e5):gsub("^.-:%d+: ", "")))

-- producer/consumer ring
local function producer(n)
  return coroutine.create(function()
    for i = 1, n do coroutine.yield(string.format("item%03d", i)) end
  end)
end
local function filter(src)
  return coroutine.create(function()
    while true do
      local ok, v = coroutine.resume(src)
      if not v then break end
      if #v % 2 == 1 then coroutine.yield(v:upper()) end
    end
  end)
end
local f = filter(producer(12))
local items = {}
while true do
  local ok, v = coroutine.resume(f)
  if not v then break end
  items[#items + 1] = v
end
print(#items, table.concat(items, ","))

-- many live coroutines, nested resumes
local cos = {}
for i = 1, 200 do
  cos[i] = coroutine.create(function(x)
    local s = 0
    for j = 1, 10 do s = s + coroutine.yield(s + x + j) end
    return s
  end)
end
local total = 0
for round = 1, 11 do
  for i = 1, 200 do
    local ok, v = coroutine.resume(cos[i], round)
    if ok and v then total = total + v end
  end
end
print("total", total)
local function nest(d)
  if d == 0 then return coroutine.yield("bottom") end
  return coroutine.wrap(function() return nest(d - 1) end)()
end
print(pcall(function() return coroutine.wrap(function() return nest(50) end)() end))

-- close
local co6 = coroutine.create(function()
  local t <close> = setmetatable({}, {__close = function() print("closed!") end})
  coroutine.yield(1)
end)
print(coroutine.resume(co6))
print(coroutine.close(co6), coroutine.status(co6))
print(coroutine.isyieldable(), type(coroutine.running()), select(2, coroutine.running()))
