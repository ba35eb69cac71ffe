-- Tables, constraints, joins, grouping, subqueries, collations, built-in
-- functions, type affinity and errors (each error is printed and the
-- script goes on).
.headers on
.mode list
CREATE TABLE dept(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE COLLATE NOCASE,
                  budget REAL CHECK (budget >= 0));
CREATE TABLE emp(id INTEGER PRIMARY KEY, name TEXT, dept INTEGER REFERENCES dept(id),
                 salary INTEGER, boss INTEGER, hired TEXT, tag TEXT COLLATE RTRIM);
INSERT INTO dept VALUES (1,'Engineering',1.5e6),(2,'sales',2.5e5),(3,'Ops',0),(4,'Research',9.75e5);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i<300)
INSERT INTO emp SELECT i, 'emp' || printf('%03d', i), 1 + (i*7) % 4, 40000 + (i*7919) % 90000,
       CASE WHEN i>4 THEN 1 + (i*13) % (i-1) END, date('2000-01-01', '+' || (i*37) || ' days'),
       CASE i%3 WHEN 0 THEN 'a  ' WHEN 1 THEN 'A' ELSE 'b ' END FROM n;
SELECT count(*), sum(salary), min(hired), max(hired), avg(salary) FROM emp;
SELECT d.name, count(e.id) AS n, sum(e.salary) AS total, round(avg(e.salary), 2) AS mean,
       group_concat(e.id, ',') FILTER (WHERE e.id % 50 = 0) AS some
  FROM dept d LEFT JOIN emp e ON e.dept = d.id GROUP BY d.id HAVING n > 0 ORDER BY total DESC;
SELECT name FROM dept WHERE name = 'SALES' OR name = 'engineering' ORDER BY name;
SELECT tag, count(*) FROM emp GROUP BY tag ORDER BY tag;
SELECT e.name, b.name AS boss, b2.name AS bossboss FROM emp e
  JOIN emp b ON e.boss = b.id LEFT JOIN emp b2 ON b.boss = b2.id WHERE e.id % 37 = 0 ORDER BY e.id;
SELECT id, salary FROM emp WHERE salary > (SELECT avg(salary) FROM emp) AND id < 30 ORDER BY salary DESC, id;
SELECT dept, max(salary), name FROM emp GROUP BY dept ORDER BY dept;
SELECT id FROM emp WHERE id IN (SELECT boss FROM emp WHERE boss IS NOT NULL) ORDER BY id LIMIT 10 OFFSET 3;
SELECT EXISTS (SELECT 1 FROM emp WHERE salary > 129000), NOT EXISTS (SELECT 1 FROM emp WHERE id < 0);
SELECT strftime('%Y-%m', hired) AS ym, count(*) FROM emp GROUP BY ym ORDER BY count(*) DESC, ym LIMIT 5;
SELECT julianday('2024-02-29') - julianday('2000-01-01'), date('2024-01-31', '+1 month'),
       strftime('%j %w %s', '2023-12-31 23:59:59'), time('12:00', '-90 minutes');
-- Text functions and collations
SELECT upper('straße'), lower('ÄBC'), length('héllo'), length(X'00ff'), hex('aé'), quote('it''s'),
       substr('abcdef', -3, 2), instr('banana', 'nan'), replace('aaa', 'a', 'bb'), trim('  x  '),
       ltrim('xxyxz', 'xy'), printf('%5.2f|%-5d|%05x|%s|%q|%c', 3.14159, 42, 255, NULL, 'o''k', 'z'),
       char(72, 105), unicode('€'), like('%B_', 'aabc'), glob('*[0-9]', 'x9');
SELECT x FROM (SELECT 'b' AS x UNION ALL SELECT 'B' UNION ALL SELECT 'a' UNION ALL SELECT 'A ' UNION ALL SELECT 'c')
  ORDER BY x COLLATE NOCASE, x;
SELECT 'a' = 'A' COLLATE NOCASE, 'x  ' = 'x' COLLATE RTRIM, 'x  ' = 'x';
-- Arithmetic, types and affinity
SELECT 9223372036854775807 + 1, -9223372036854775808 - 1, 5 / 2, 5 / 2.0, 5 % 3, -5 % 3, 1 / 0, 1.0 / 0,
       typeof(1), typeof(1.0), typeof('1'), typeof(X'01'), typeof(NULL), CAST('12abc' AS INTEGER),
       CAST(3.99 AS INTEGER), CAST(-0.0 AS TEXT), 1e308 * 10, abs(-9223372036854775807), 0x7fffffff << 33,
       ~5, 6 & 3, 6 | 3, round(2.5), round(-2.5), round(1234.5678, -2);
CREATE TABLE aff(t TEXT, n NUMERIC, i INTEGER, r REAL, b BLOB);
INSERT INTO aff VALUES ('1', '1', '1', '1', '1'), (1.5, '1.50', '2.0', 3, 4), ('x', 'x', 'x', 'x', 'x');
SELECT typeof(t), typeof(n), typeof(i), typeof(r), typeof(b), t, n, i, r, b FROM aff;
SELECT min(1, 'a', X'00', NULL), max(1, 'a', X'00'), coalesce(NULL, NULL, 3), nullif(1, 1), ifnull(NULL, 'z'),
       iif(1 > 2, 'y', 'n'), 1 IS NOT 2, NULL IS NULL, NULL = NULL, 3 BETWEEN 1 AND 5;
SELECT sqrt(2), pow(2, 10), ln(10), log10(1000), log(2, 8), exp(1), floor(-1.5), ceil(-1.5), trunc(2.7), pi(),
       sin(1), atan2(1, 2), degrees(pi()), mod(7.5, 2);
-- Errors: each is reported, the rest goes on
INSERT INTO dept VALUES (5, 'SALES', 1);
INSERT INTO dept VALUES (6, NULL, 1);
INSERT INTO dept VALUES (7, 'x', -1);
INSERT INTO dept VALUES (1, 'dup', 1);
SELECT * FROM nosuchtable;
SELECT nosuchcolumn FROM dept;
SELECT count(*) FROM dept WHERE;
SELECT abs(-9223372036854775808);
SELECT json('{bad');
SELECT 1 UNION SELECT 1, 2;
PRAGMA foreign_keys = ON;
INSERT INTO emp(id, dept) VALUES (1000, 99);
DELETE FROM dept WHERE id = 1;
INSERT OR REPLACE INTO dept VALUES (3, 'Ops2', 5);
INSERT OR IGNORE INTO dept VALUES (3, 'Ops3', 5);
INSERT INTO dept VALUES (3, 'Ops4', 6) ON CONFLICT(id) DO UPDATE SET budget = budget + excluded.budget;
UPDATE emp SET salary = salary * 2 WHERE dept = 3 RETURNING id, salary;
SELECT * FROM dept ORDER BY id;
-- Indexes, the planner and sorting many rows
CREATE INDEX emp_dept_salary ON emp(dept, salary DESC);
CREATE INDEX emp_expr ON emp(lower(name)) WHERE salary > 60000;
ANALYZE;
SELECT count(*), sum(salary) FROM emp WHERE dept = 2 AND salary BETWEEN 50000 AND 90000;
SELECT id FROM emp WHERE lower(name) = 'emp042' AND salary > 60000;
SELECT id, salary FROM emp INDEXED BY emp_dept_salary WHERE dept = 4 ORDER BY salary DESC LIMIT 4;
SELECT group_concat(id, ' ') FROM (SELECT id FROM emp ORDER BY salary % 1000, hired DESC, id LIMIT 25);
SELECT a.id, b.id FROM emp a, emp b WHERE a.salary = b.salary AND a.id < b.id ORDER BY 1, 2 LIMIT 10;
SELECT DISTINCT dept, tag FROM emp ORDER BY 1, 2;
SELECT id FROM emp WHERE id < 10 INTERSECT SELECT boss FROM emp EXCEPT SELECT 3 ORDER BY 1;
PRAGMA integrity_check;
