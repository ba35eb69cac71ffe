-- A mix of the interpreter: strings, patterns, tables, sort, closures, GC
-- with finalizers, metatables, integer/float arithmetic, string.pack, utf8,
-- goto, varargs.
local t = {}
for i = 1, 1000 do t[i] = (i * 7919) % 1009 end
table.sort(t, function(a, b) return a > b end)
print(t[1], t[500], t[1000])
local s = {}
for w in ("the quick brown fox jumps over the lazy dog"):gmatch("%a+") do s[#s + 1] = w:reverse() end
print(table.concat(s, " "))
print(("hello world from lua"):gsub("(%w+)", "<%1>"))
print(string.format("%5.2f|%-5d|%x|%q|%s", math.pi, 42, 255, "a\nb", {1} ~= nil))
print(("%d items"):format(3), ("abc"):rep(3, "-"), ("Mixed"):lower(), ("x"):byte())
local function counter()
  local n = 0
  return function() n = n + 1; return n end
end
local c1, c2 = counter(), counter()
c1(); c1()
print(c1(), c2())
local V = {}
V.__index = V
V.__add = function(a, b) return setmetatable({x = a.x + b.x}, V) end
V.__eq = function(a, b) return a.x == b.x end
V.__lt = function(a, b) return a.x < b.x end
V.__call = function(self, y) return self.x * y end
V.__len = function(self) return self.x end
local a, b = setmetatable({x = 3}, V), setmetatable({x = 4}, V)
print((a + b).x, a == b, a < b, a(10), #b)
local collected = 0
for i = 1, 100 do setmetatable({}, {__gc = function() collected = collected + 1 end}) end
collectgarbage(); collectgarbage()
print("collected", collected)
local weak = setmetatable({}, {__mode = "k"})
weak[{}] = 1
collectgarbage()
print("weak", next(weak))
print(math.type(1), math.type(1.0), 3 / 2, 3 // 2, 2^10, 10 % 3, -10 % 3, 1e300 * 1e10)
print(math.tointeger(3.0), 0x7fffffffffffffff, string.format("%.17g", 0.1))
print(string.pack(">I4i2", 0x01020304, -2):byte(1, -1))
print(string.unpack("<i4", string.pack("<i4", -123456)))
print(utf8.char(72, 228, 8364, 128512), utf8.len("häll€"))
for p, cp in utf8.codes("aé€") do io.write(p, ":", cp, " ") end
print()
local function va(...)
  local n = select("#", ...)
  local packed = table.pack(...)
  return n, packed.n, select(2, ...)
end
print(va(1, nil, 3, nil))
print(table.unpack({1, 2, 3}, 2))
do
  local i = 1
  ::top::
  if i < 5 then i = i + 1; goto top end
  print("goto", i)
end
local fib = {}
local function F(n) if n < 2 then return n end; if fib[n] then return fib[n] end; local r = F(n - 1) + F(n - 2); fib[n] = r; return r end
print(F(80))
local env = {print = print, x = 5}
print(load("x = x + 1; return x", "chunk", "t", env)(), env.x)
local parts = {}
for k, v in pairs({10, 20, 30}) do parts[#parts + 1] = k .. "=" .. v end
print(table.concat(parts, ";"))
print(table.move({1, 2, 3, 4, 5}, 2, 4, 1)[1], #table.move({1, 2, 3}, 1, 3, 3, {}))
print(tostring(nil), tostring(true), tonumber("0x10"), tonumber("10", 2), tonumber("z", 36))
local big = {}
for i = 1, 20000 do big[i] = tostring(i) end
print(#table.concat(big), select("#", table.unpack(big, 1, 200)))
print(string.find("abc [tag] def", "[tag]", 1, true), string.match("key=val", "(%w+)=(%w+)"))
print(os.time{year=2020, month=1, day=1, hour=12} - os.time{year=2020, month=1, day=1, hour=0})
