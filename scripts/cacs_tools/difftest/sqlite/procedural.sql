-- Triggers, views, recursive CTEs, window functions, upserts and
-- generated columns.
.headers on
.mode column
CREATE TABLE account(id INTEGER PRIMARY KEY, owner TEXT, balance INTEGER NOT NULL DEFAULT 0,
                     cents AS (balance * 100) STORED, flag AS (balance < 0));
CREATE TABLE ledger(seq INTEGER PRIMARY KEY AUTOINCREMENT, account INTEGER, delta INTEGER, note TEXT);
CREATE TRIGGER account_change AFTER UPDATE OF balance ON account
  WHEN new.balance <> old.balance
BEGIN
  INSERT INTO ledger(account, delta, note) VALUES (new.id, new.balance - old.balance, 'update ' || old.owner);
END;
CREATE TRIGGER no_overdraft BEFORE UPDATE ON account WHEN new.balance < -100
BEGIN
  SELECT RAISE(ABORT, 'overdraft');
END;
CREATE TRIGGER account_gone BEFORE DELETE ON account
BEGIN
  INSERT INTO ledger(account, delta, note) VALUES (old.id, -old.balance, 'closed');
END;
CREATE VIEW summary AS SELECT owner, balance, (SELECT count(*) FROM ledger WHERE account = account.id) AS moves
  FROM account;
CREATE TRIGGER summary_insert INSTEAD OF INSERT ON summary
BEGIN
  INSERT INTO account(owner, balance) VALUES (new.owner, coalesce(new.balance, 0));
END;
INSERT INTO account(owner, balance) VALUES ('ann', 100), ('bob', 50), ('cy', 0);
INSERT INTO summary(owner, balance) VALUES ('dee', 7), ('eve', NULL);
UPDATE account SET balance = balance - 30 WHERE owner IN ('ann', 'bob');
UPDATE account SET balance = balance - 300 WHERE owner = 'cy';
UPDATE account SET balance = -60 WHERE owner = 'cy';
DELETE FROM account WHERE owner = 'eve';
SELECT * FROM account ORDER BY id;
SELECT * FROM ledger ORDER BY seq;
SELECT * FROM summary ORDER BY owner;
SELECT name, seq FROM sqlite_sequence;
-- Recursive CTEs: a sequence, a tree walk, Collatz, the Mandelbrot set and
-- a Sudoku (the examples of SQLite's documentation of WITH).
WITH RECURSIVE fib(i, a, b) AS (SELECT 1, 0, 1 UNION ALL SELECT i + 1, b, a + b FROM fib WHERE i < 90)
SELECT i, a FROM fib WHERE i % 10 = 0;
CREATE TABLE org(name TEXT PRIMARY KEY, boss TEXT REFERENCES org) WITHOUT ROWID;
INSERT INTO org VALUES ('Alice', NULL), ('Bob', 'Alice'), ('Cindy', 'Alice'), ('Dave', 'Bob'),
  ('Emma', 'Bob'), ('Fred', 'Cindy'), ('Gail', 'Cindy'), ('Hank', 'Gail');
WITH RECURSIVE under_alice(name, level) AS (
  VALUES ('Alice', 0) UNION ALL
  SELECT org.name, under_alice.level + 1 FROM org JOIN under_alice ON org.boss = under_alice.name
  ORDER BY 2 DESC)
SELECT substr('..........', 1, level * 3) || name AS tree FROM under_alice;
WITH RECURSIVE c(start, n, steps) AS (
  SELECT s, s, 0 FROM (SELECT 27 AS s UNION ALL SELECT 97 UNION ALL SELECT 871)
  UNION ALL SELECT start, CASE WHEN n % 2 THEN 3 * n + 1 ELSE n / 2 END, steps + 1 FROM c WHERE n > 1)
SELECT start, max(steps), max(n) FROM c GROUP BY start;
.mode list
WITH RECURSIVE
  xaxis(x) AS (VALUES(-2.0) UNION ALL SELECT x+0.05 FROM xaxis WHERE x<1.2),
  yaxis(y) AS (VALUES(-1.0) UNION ALL SELECT y+0.1 FROM yaxis WHERE y<1.0),
  m(iter, cx, cy, x, y) AS (
    SELECT 0, x, y, 0.0, 0.0 FROM xaxis, yaxis
    UNION ALL
    SELECT iter+1, cx, cy, x*x-y*y + cx, 2.0*x*y + cy FROM m
     WHERE (x*x + y*y) < 4.0 AND iter<28),
  m2(iter, cx, cy) AS (SELECT max(iter), cx, cy FROM m GROUP BY cx, cy),
  a(t) AS (SELECT group_concat( substr(' .+*#', 1+min(iter/7,4), 1), '') FROM m2 GROUP BY cy)
SELECT group_concat(rtrim(t),x'0a') FROM a;
WITH RECURSIVE
  input(sud) AS (VALUES('53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79')),
  digits(z, lp) AS (VALUES('1', 1) UNION ALL SELECT CAST(lp+1 AS TEXT), lp+1 FROM digits WHERE lp<9),
  x(s, ind) AS (
    SELECT sud, instr(sud, '.') FROM input
    UNION ALL
    SELECT substr(s, 1, ind-1) || z || substr(s, ind+1), instr( substr(s, 1, ind-1) || z || substr(s, ind+1), '.' )
     FROM x, digits AS z
    WHERE ind>0
      AND NOT EXISTS (
            SELECT 1 FROM digits AS lp
             WHERE z.z = substr(s, ((ind-1)/9)*9 + lp, 1)
                OR z.z = substr(s, ((ind-1)%9) + (lp-1)*9 + 1, 1)
                OR z.z = substr(s, (((ind-1)/3) % 3) * 3 + ((ind-1)/27) * 27 + lp + ((lp-1) / 3) * 6, 1)))
SELECT s FROM x WHERE ind=0;
.mode column
-- Window functions over several frames
CREATE TABLE sales(region TEXT, month INTEGER, amount REAL);
WITH RECURSIVE m(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM m WHERE i < 35)
INSERT INTO sales SELECT CASE i % 3 WHEN 0 THEN 'north' WHEN 1 THEN 'south' ELSE 'east' END, i / 3,
                         round(100 + ((i * 7919) % 113) * 1.25, 2) FROM m;
SELECT region, month, amount,
       row_number() OVER w AS rn, rank() OVER (PARTITION BY region ORDER BY amount) AS rk,
       dense_rank() OVER (ORDER BY amount DESC) AS drk, ntile(4) OVER w AS nt,
       lag(amount, 1, -1) OVER w AS prev, lead(amount, 2) OVER w AS next2,
       sum(amount) OVER (PARTITION BY region ORDER BY month ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS roll3,
       round(avg(amount) OVER (ORDER BY month RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING), 3) AS near,
       count(*) OVER (ORDER BY month GROUPS BETWEEN CURRENT ROW AND 1 FOLLOWING EXCLUDE TIES) AS grp,
       first_value(amount) OVER w AS first, nth_value(amount, 3) OVER w AS third,
       round(percent_rank() OVER w, 4) AS pr, round(cume_dist() OVER w, 4) AS cd
  FROM sales WINDOW w AS (PARTITION BY region ORDER BY month) ORDER BY region, month;
SELECT region, group_concat(month, '-') OVER (PARTITION BY region ORDER BY month
         ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS all_months
  FROM sales WHERE month < 3 ORDER BY region, month;
-- Upserts, UPDATE FROM, RETURNING, generated columns, STRICT tables
CREATE TABLE kv(k TEXT PRIMARY KEY, v INTEGER, n INTEGER DEFAULT 1) STRICT;
INSERT INTO kv(k, v) VALUES ('a', 1), ('b', 2);
INSERT INTO kv(k, v) VALUES ('a', 10), ('c', 3) ON CONFLICT(k) DO UPDATE SET v = v + excluded.v, n = n + 1;
INSERT INTO kv(k, v) VALUES ('d', 'not an integer');
UPDATE kv SET v = v * 100 FROM (SELECT 'b' AS k2) WHERE kv.k = k2 RETURNING k, v, n;
SELECT * FROM kv ORDER BY k;
DELETE FROM kv WHERE v > 5 RETURNING *;
