-- pcall, error, xpcall, error objects and levels, stack overflow, to-be-closed
-- variables and errors from C functions.
local function strip(m) return (tostring(m):gsub("^[^:]*:%d+: ", "")) end
print(pcall(error, "plain"))
print(select("#", pcall(error, {1, 2, 3})), type(select(2, pcall(error, {1, 2, 3}))))
print(pcall(error))
print(select("#", pcall(error, nil)))
local function lvl2() error("level two", 2) end
local ok, m = pcall(function() lvl2() end)
print(ok, strip(m))
print(xpcall(function() error("x") end, function(e) return "handled: " .. strip(e) end))
print(xpcall(function(a, b) return a + b end, print, 3, 4))
print(pcall(function() local t = nil; return t.x end))
print(pcall(function() return 1 + {} end))
print(pcall(function() return #5 end))
print(pcall(string.rep))
print(pcall(string.format, "%d", "x"))
print(pcall(setmetatable, 1, {}))
-- error in error handler
print(xpcall(function() error("a") end, function() error("b") end))
-- stack overflow in Lua and through C (string.gsub callbacks)
local function rec(n) return rec(n + 1) + 1 end
local ok2, e2 = pcall(rec, 1)
print(ok2, (strip(e2):match("stack overflow")))
local function crec(s) return (s:gsub(".", function(c) return crec(c) end)) end
local ok3, e3 = pcall(crec, "ab")
print(ok3, (tostring(e3):match("stack overflow")) or (tostring(e3):match("C stack overflow")))
-- nested pcall depth
local function deep(n) if n == 0 then error("deep") end return pcall(deep, n - 1) end
print(deep(100))
-- error objects with __tostring
local E = setmetatable({}, {__tostring = function() return "custom error" end})
print(select(2, pcall(error, E)) == E, tostring(E))
-- to-be-closed on error
do
  local ok4, e4 = pcall(function()
    local a <close> = setmetatable({}, {__close = function(_, err) print("close a", strip(err)) end})
    local b <close> = setmetatable({}, {__close = function(_, err) print("close b", strip(err)) end})
    error("in body")
  end)
  print(ok4, strip(e4))
end
-- error with non-string in coroutine inside pcall
print(pcall(coroutine.wrap(function() error(setmetatable({}, {__index = function() return 7 end})) end)))
-- load errors
print(load("return +"))
print(pcall(load("error('from chunk', 0)")))
-- assert
print(pcall(assert, false, "assert msg"))
print(pcall(assert, 1 == 1, "no"))
-- tostring(nil) errors from concat
print(pcall(function() return "a" .. nil end))
-- integer overflow / division
print(pcall(function() return 1 // 0 end))
print(math.maxinteger + 1 == math.mininteger, 7 // 2, -7 // 2, 7 % -3, 2^53)
